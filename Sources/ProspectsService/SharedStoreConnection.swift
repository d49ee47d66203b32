import ProspectStore
import ProspectsCore
import SystemCalls

/// One store connection that a server's threads share, one at a time: opened on first use, and dropped when a use
/// fails, so that the next use opens a new one.
final class SharedStoreConnection: Sendable {
    /// A store handed between threads, never used by two at once (the lock).
    private struct Held: @unchecked Sendable {
        var store: (any ProspectStore)?
    }

    private let held = Locked(Held())
    private let openStore: @Sendable () throws -> any ProspectStore

    init(openStore: @escaping @Sendable () throws -> any ProspectStore) {
        self.openStore = openStore
    }

    /// Runs `body` on the connection, under the lock.
    func withStore<T>(_ body: (any ProspectStore) throws(StoreError) -> T) throws(StoreError) -> T {
        try held.withLock { held throws(StoreError) -> T in
            do throws(StoreError) {
                let store: any ProspectStore
                if let open = held.store {
                    store = open
                } else {
                    do { store = try openStore() } catch let error as StoreError { throw error } catch {
                        throw .unavailable("cannot open the store: \(error)")
                    }
                }
                held.store = store
                return try body(store)
            } catch {
                held.store = nil
                throw error
            }
        }
    }
}
