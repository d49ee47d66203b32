import ProspectsCore

extension PostgresStore: AccountStore {
    public func addAccount(_ account: Account) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) in
            // Serialises the table's creation: two first `user add`s at once would otherwise race on its type.
            _ = try connection.execute("SELECT pg_advisory_xact_lock(2026120201)")
            _ = try connection.execute(AccountSQL.createTable)
            return try connection.execute(AccountSQL.insert, AccountSQL.values(of: account)).affectedRows > 0
        }
    }

    public func accounts() throws(StoreError) -> [Account] {
        guard try hasAccountTable() else { return [] }
        var accounts: [Account] = []
        for row in try connection.execute(AccountSQL.selectAll).rows {
            accounts.append(try AccountSQL.account(from: row))
        }
        return accounts
    }

    public func account(named name: String) throws(StoreError) -> Account? {
        guard try hasAccountTable() else { return nil }
        guard let row = try connection.execute(AccountSQL.selectOne, [.text(name)]).rows.first else { return nil }
        return try AccountSQL.account(from: row)
    }

    public func removeAccount(named name: String) throws(StoreError) -> Bool {
        guard try hasAccountTable() else { return false }
        return try connection.execute(AccountSQL.delete, [.text(name)]).affectedRows > 0
    }

    /// Reading never makes the table: a store without accounts stays as it was.
    private func hasAccountTable() throws(StoreError) -> Bool {
        guard let row = try connection.execute("SELECT to_regclass('accounts') IS NOT NULL").rows.first else {
            return false
        }
        return try row.bool(0)
    }
}
