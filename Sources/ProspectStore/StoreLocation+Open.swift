extension StoreLocation {
    /// Opens the store this location names, creating and migrating its schema as needed.
    public func open() throws(StoreError) -> any ProspectStore {
        switch self {
        case .sqlite(let path): try SQLiteStore(path: path)
        case .postgres(let url): try PostgresStore(url: url)
        }
    }
}
