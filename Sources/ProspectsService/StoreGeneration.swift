import ProspectStore
import ProspectsCore
import SystemCalls

/// The store's change generation, read on a connection of its own: the key that tells a cached page from a stale
/// one. Every committed write transaction of any process moves it (see `ProspectStore.changeCounter`).
public final class StoreGeneration: Sendable {
    private let connection: SharedStoreConnection

    /// Over the store `--store` / `PROSPECTS_STORE` names (as `ProspectsService(storeOption:environment:)` finds it).
    public convenience init(storeOption: String?, environment: [String: String]) {
        self.init { try ProspectsService(storeOption: storeOption, environment: environment).store(create: false) }
    }

    init(openStore: @escaping @Sendable () throws -> any ProspectStore) {
        connection = SharedStoreConnection(openStore: openStore)
    }

    /// The generation now; nil when the store cannot say (then nothing may be cached). A failed read drops the
    /// connection, and the next call opens a new one.
    public func current() -> Int64? {
        try? connection.withStore { store throws(StoreError) in try store.changeCounter() }
    }
}
