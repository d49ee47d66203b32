import ProspectsCore

extension StoreLocation {
    /// Opens the store this location names, migrating its schema as needed; `create`: a missing SQLite file is
    /// made (else `.unavailable`). A PostgreSQL database must exist either way; its tables are made as needed.
    /// `lockWait`: how long a statement waits for another process's lock before failing with `.busy`.
    public func open(create: Bool = true, lockWait: Duration = StoreLocation.defaultLockWait) throws(StoreError)
        -> any ProspectStore
    {
        switch self {
        case .sqlite(let path): try SQLiteStore(path: path, create: create, lockWait: lockWait)
        case .postgres(let url): try PostgresStore(url: url, lockWait: lockWait)
        }
    }
}
