/// Why the store could not do what was asked. Messages never contain a password or bound values.
public enum StoreError: Error, Sendable, Hashable {
    /// The store could not be opened or reached (missing folder, server down, authentication failed).
    case unavailable(String)
    /// The store stayed locked by another writer longer than the busy timeout.
    case busy(String)
    /// The store refuses this user: a database role without a privilege it needs, or a read-only file.
    case permissionDenied(String)
    /// The store could not write its data: its disk is full (which may pass), or failing (which will not).
    case storageFailed(String, diskFull: Bool)
    /// The store's schema is newer than this program understands.
    case schemaTooNew(found: Int, supported: Int)
    /// The database cannot hold a prospect store as it is set up (a PostgreSQL database not encoded in UTF-8).
    case unsupportedDatabase(String)
    /// The `--store` value is neither a file path nor a `postgres://` URL this program can use.
    case invalidLocation(String)
    /// Any other error the database reported, with its code and the statement that failed.
    case database(code: Int32, message: String, sql: String?)
    /// The store answered with data this program cannot understand (a corrupt row).
    case corrupt(String)

    public var message: String {
        switch self {
        case .unavailable(let why): "the prospect store is unavailable: \(why)"
        case .busy(let why): "the prospect store stayed busy: \(why)"
        case .permissionDenied(let why): "the prospect store refuses this user: \(why)"
        case .storageFailed(let why, _): "the prospect store could not write: \(why)"
        case .schemaTooNew(let found, let supported):
            "the prospect store has schema version \(found); this program knows up to \(supported) — upgrade prospects"
        case .unsupportedDatabase(let why): "the prospect store cannot be kept here: \(why)"
        case .invalidLocation(let why): "invalid store location: \(why)"
        case .database(let code, let message, let sql):
            "database error \(code): \(message)" + (sql.map { " (in: \($0))" } ?? "")
        case .corrupt(let why): "the prospect store holds unexpected data: \(why)"
        }
    }
}

extension StoreError {
    /// True for a store that may work again without any change on our side: unreachable (a server restarting),
    /// busy (another process's long transaction) or out of disk space (until someone frees some); not a disk that
    /// fails to read (a truncated file stays truncated). A daemon waits these out; a command reports them.
    public var isWorthWaitingFor: Bool {
        switch self {
        case .unavailable, .busy: true
        case .storageFailed(_, let diskFull): diskFull
        case .permissionDenied, .schemaTooNew, .unsupportedDatabase, .invalidLocation, .database, .corrupt: false
        }
    }
}

extension StoreError: CustomStringConvertible {
    public var description: String { message }
}
