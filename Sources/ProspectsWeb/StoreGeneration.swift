import ProspectStore
import SystemCalls

/// The store's change generation, read on a connection of its own: the key that tells a cached page from a stale
/// one. Every committed write transaction of any process moves it (see `ProspectStore.changeCounter`).
final class StoreGeneration: Sendable {
    /// A store handed between threads, never used by two at once (the mutex).
    private struct Probe: @unchecked Sendable {
        var store: (any ProspectStore)?
    }

    private let probe = Locked(Probe())
    private let openStore: @Sendable () throws -> any ProspectStore

    init(openStore: @escaping @Sendable () throws -> any ProspectStore) {
        self.openStore = openStore
    }

    /// The generation now; nil when the store cannot say (then nothing may be cached). A failed read drops the
    /// connection, and the next call opens a new one.
    func current() -> Int64? {
        probe.withLock { probe in
            do {
                let store = try probe.store ?? openStore()
                probe.store = store
                return try store.changeCounter()
            } catch {
                probe.store = nil
                return nil
            }
        }
    }
}
