import ProspectsCore

extension SQLiteStore: AccountStore {
    public func addAccount(_ account: Account) throws(StoreError) -> Bool {
        try database.writeTransaction { () throws(StoreError) in
            try database.execute(AccountSQL.createTable)
            let statement = try database.statement(AccountSQL.insert)
            try statement.execute(AccountSQL.values(of: account))
            return statement.changes > 0
        }
    }

    public func accounts() throws(StoreError) -> [Account] {
        guard try hasAccountTable() else { return [] }
        return try database.query(AccountSQL.selectAll) { row throws(StoreError) in try AccountSQL.account(from: row) }
    }

    public func account(named name: String) throws(StoreError) -> Account? {
        guard try hasAccountTable() else { return nil }
        return try database.query(AccountSQL.selectOne, [.text(name)]) { row throws(StoreError) in
            try AccountSQL.account(from: row)
        }.first
    }

    public func removeAccount(named name: String) throws(StoreError) -> Bool {
        guard try hasAccountTable() else { return false }
        let statement = try database.statement(AccountSQL.delete)
        return try database.writeTransaction { () throws(StoreError) in
            try statement.execute([.text(name)])
            return statement.changes > 0
        }
    }

    /// Reading never makes the table: a store without accounts stays as it was.
    private func hasAccountTable() throws(StoreError) -> Bool {
        try database.query("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'accounts'") {
            row throws(StoreError) in try row.int(0)
        }.first == 1
    }
}
