import ProspectsCore

extension PostgresStore: CopyableStore {
    /// A read-only transaction at REPEATABLE READ: every statement in it sees the snapshot of its first.
    public func inReadSnapshot<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do throws(StoreError) {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            if connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    public func inCopyTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try connection.transaction(body)
    }

    public func hasTable(_ table: StoreTable) throws(StoreError) -> Bool {
        try connection.execute(
            """
            SELECT count(*) FROM pg_catalog.pg_class
            WHERE relname = $1 AND relkind = 'r' AND pg_catalog.pg_table_is_visible(oid)
            """, [.text(table.name)]
        ).rows.first.map { row throws(StoreError) in try row.int(0) } == 1
    }

    public func makeTable(_ table: StoreTable) throws(StoreError) {
        if table.name == "accounts" { try connection.execute(AccountSQL.createTable) }
    }

    public func eachRow(of table: StoreTable, _ body: ([SQLValue]) throws(StoreError) -> Void) throws(StoreError) {
        guard try hasTable(table) else { return }
        try connection.each(table.selectAll { "\($0) COLLATE \"C\"" }) { row throws(StoreError) in
            try body(try table.values(of: row))
            return true
        }
    }

    public func rowCount(of table: StoreTable) throws(StoreError) -> Int {
        guard try hasTable(table) else { return 0 }
        return try connection.execute("SELECT count(*) FROM \(table.name)").rows.first.map {
            row throws(StoreError) in try row.int(0)
        } ?? 0
    }

    public func insertRow(_ values: [SQLValue], into table: StoreTable) throws(StoreError) {
        try connection.execute(table.insertOne, values)
    }

    /// The prospects' identity sequence as far as it went (ids of deleted prospects included).
    public func idHighWater() throws(StoreError) -> Int64 {
        let sql = """
            SELECT greatest(
                (SELECT coalesce(max(id), 0) FROM prospects),
                coalesce(pg_catalog.pg_sequence_last_value(
                    pg_catalog.pg_get_serial_sequence('prospects', 'id')::regclass), 0))
            """
        return try connection.execute(sql).rows.first.map { row throws(StoreError) in try row.int64(0) } ?? 0
    }

    /// Each copied table's identity sequence continues after its highest id (prospects' after `prospects`).
    public func continueIDs(above prospects: Int64) throws(StoreError) {
        for table in StoreTable.copied {
            guard let identity = table.identity else { continue }
            let floor: Int64 = table.name == "prospects" ? prospects : 0
            try connection.execute(
                """
                SELECT setval(pg_catalog.pg_get_serial_sequence($1, $2),
                    greatest($3::bigint, (SELECT coalesce(max(\(identity)), 0) FROM \(table.name)), 1),
                    greatest($3::bigint, (SELECT coalesce(max(\(identity)), 0) FROM \(table.name))) > 0)
                """, [.text(table.name), .text(identity), .integer(floor)])
        }
    }
}
