import Foundation
import ProspectStore
import ProspectsCore

/// The sessions and form-token keys a server keeps in its store (`WebSessionStore`), read and written over one
/// connection the server's threads share (`SharedStoreConnection`): what the web's session store needs of the store,
/// as values.
public final class SessionRecords: Sendable {
    private let connection: SharedStoreConnection

    /// Over the store `--store` / `PROSPECTS_STORE` names (as `ProspectsService(storeOption:environment:)` finds it).
    public convenience init(storeOption: String?, environment: [String: String]) {
        self.init { try ProspectsService(storeOption: storeOption, environment: environment).store(create: false) }
    }

    init(openStore: @escaping @Sendable () throws -> any ProspectStore) {
        connection = SharedStoreConnection(openStore: openStore)
    }

    /// The session stored under `key`: nil when there is none, or when it was last used more than `idleTimeout`
    /// before `time` (it is removed then). A use is noted when the last is older than `touchEvery`, best effort: a
    /// store busy with a long write (an import) delays the note of use, not the page.
    public func session(key: String, at time: Date, idleTimeout: TimeInterval, touchEvery: TimeInterval)
        throws(StoreError) -> WebSession?
    {
        try withStore { store throws(StoreError) -> WebSession? in
            guard let stored = try store.session(key: key) else { return nil }
            if time.timeIntervalSince(stored.lastUsedAt) > idleTimeout {
                _ = try store.removeSession(key: key)
                return nil
            }
            if time.timeIntervalSince(stored.lastUsedAt) > touchEvery {
                _ = try? store.touchSession(key: key, at: time)
            }
            return stored
        }
    }

    /// Adds the session (past `capacity` of its account, the least recently used goes); with `forgettingUsedBefore`,
    /// every session last used before it goes too.
    public func add(_ session: WebSession, capacity: Int, forgettingUsedBefore: Date? = nil) throws(StoreError) {
        try withStore { store throws(StoreError) in
            try store.addSession(session, capacity: capacity)
            if let forgettingUsedBefore { _ = try store.removeSessions(usedBefore: forgettingUsedBefore) }
        }
    }

    /// Ends the session stored under `key`, for every server over the store.
    public func remove(key: String) throws(StoreError) {
        try withStore { store throws(StoreError) in _ = try store.removeSession(key: key) }
    }

    /// The newest form-token keys (at most `limit`, newest first); when the store has none, one with `secret()`
    /// is made first (only if still none: servers starting together make one between them).
    public func webKeys(limit: Int, makingOneWith secret: () -> String, at time: Date) throws(StoreError) -> [WebKey] {
        try withStore { store throws(StoreError) -> [WebKey] in
            var found = try store.webKeys(limit: limit)
            if found.isEmpty {
                try store.addWebKey(secret: secret(), at: time, onlyIfNone: true)
                found = try store.webKeys(limit: limit)
            }
            return found
        }
    }

    /// Adds a form-token key: the newest from then on.
    public func addWebKey(secret: String, at time: Date) throws(StoreError) {
        try withStore { store throws(StoreError) in
            try store.addWebKey(secret: secret, at: time, onlyIfNone: false)
        }
    }

    private func withStore<T>(_ body: (any WebSessionStore) throws(StoreError) -> T) throws(StoreError) -> T {
        try connection.withStore { store throws(StoreError) -> T in
            guard let sessions = store as? any WebSessionStore else {
                throw .unavailable("this store keeps no sessions")
            }
            return try body(sessions)
        }
    }
}
