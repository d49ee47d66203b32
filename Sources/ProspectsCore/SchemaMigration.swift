/// What opening a store of an older schema did: it was migrated, and for SQLite a copy of the file as it was kept
/// beside it, the way back. A front-end says so once (`message`); a new store's first schema is no migration.
public struct SchemaMigration: Sendable, Hashable {
    public var store: String
    public var from: Int
    public var to: Int
    /// The copy of the SQLite file before the migration (`VACUUM INTO`); nil for PostgreSQL.
    public var backup: String?

    public init(store: String, from: Int, to: Int, backup: String?) {
        self.store = store
        self.from = from
        self.to = to
        self.backup = backup
    }

    public var message: String {
        let kept =
            backup.map { "the file as it was is kept in \($0)" }
            ?? "no copy was kept (pg_dump or prospects copy make one)"
        return "\(store): migrated from schema version \(from) to \(to), which this version of prospects needs; "
            + "\(kept); an older prospects cannot open it now"
    }
}
