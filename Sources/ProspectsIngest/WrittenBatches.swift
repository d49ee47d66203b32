import Foundation

/// The batches an import has written, handed back so that the reading thread, which allocated their texts, frees
/// them: glibc frees a block another thread allocated under that thread's arena lock, and the two threads then
/// took turns on it, the writer sleeping and waking on the lock hundreds of times an import.
///
/// Guarded by an `NSLock` (a pthread mutex, which ThreadSanitizer sees) rather than `Mutex`, whose futex it does not.
final class WrittenBatches: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var batches: [Importer.Batch] = []

    /// Called by the writer once `batch` is in the store.
    func add(_ batch: Importer.Batch) {
        lock.withLock { batches.append(batch) }
    }

    /// Called by the reader: frees the batches written since, unless the writer still holds one.
    func free() {
        let written = lock.withLock {
            defer { batches = [] }
            return batches
        }
        withExtendedLifetime(written) {}
    }
}
