import Synchronization

/// The batches an import has written, handed back so that the reading thread, which allocated their texts, frees
/// them: glibc frees a block another thread allocated under that thread's arena lock, and the two threads then
/// took turns on it, the writer sleeping and waking on the lock hundreds of times an import.
final class WrittenBatches: Sendable {
    private let batches = Mutex<[Importer.Batch]>([])

    /// Called by the writer once `batch` is in the store.
    func add(_ batch: Importer.Batch) {
        batches.withLock { $0.append(batch) }
    }

    /// Called by the reader: frees the batches written since, unless the writer still holds one.
    func free() {
        let written = batches.withLock { batches in
            defer { batches = [] }
            return batches
        }
        withExtendedLifetime(written) {}
    }
}
