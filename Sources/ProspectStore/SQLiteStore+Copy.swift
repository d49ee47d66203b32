import ProspectsCore

extension SQLiteStore: CopyableStore {
    /// A deferred transaction: its first read fixes the snapshot (WAL), and it writes nothing.
    public func inReadSnapshot<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try database.execute("BEGIN")
        do throws(StoreError) {
            let result = try body()
            try database.execute("COMMIT")
            return result
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    public func inCopyTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try database.writeTransaction(body)
    }

    public func hasTable(_ table: StoreTable) throws(StoreError) -> Bool {
        try database.query("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1", [.text(table.name)])
        { row throws(StoreError) in try row.int(0) }.first == 1
    }

    public func makeTable(_ table: StoreTable) throws(StoreError) {
        if table.name == "accounts" { try database.execute(AccountSQL.createTable) }
    }

    public func eachRow(of table: StoreTable, _ body: ([SQLValue]) throws(StoreError) -> Void) throws(StoreError) {
        guard try hasTable(table) else { return }
        try database.each(table.selectAll { $0 }) { row throws(StoreError) in
            try body(try table.values(of: row))
            return true
        }
    }

    public func rowCount(of table: StoreTable) throws(StoreError) -> Int {
        guard try hasTable(table) else { return 0 }
        return try database.query("SELECT count(*) FROM \(table.name)") { row throws(StoreError) in try row.int(0) }
            .first ?? 0
    }

    public func insertRow(_ values: [SQLValue], into table: StoreTable) throws(StoreError) {
        try database.execute(table.insertOne, values)
    }

    public func idHighWater() throws(StoreError) -> Int64 {
        let sql = "SELECT max(coalesce((SELECT max(id) FROM prospects), 0), (SELECT max(last_id) FROM id_high_water))"
        return try database.query(sql) { row throws(StoreError) in try row.optionalInt64(0) }.first.flatMap { $0 } ?? 0
    }

    /// SQLite numbers scans and notes after the highest rowid by itself; prospects after `id_high_water`.
    public func continueIDs(above prospects: Int64) throws(StoreError) {
        try database.execute("UPDATE id_high_water SET last_id = max(last_id, $1)", [.integer(prospects)])
    }
}
