import ProspectsCore

/// The SQL of the accounts table, the same on SQLite and PostgreSQL.
enum AccountSQL {
    static let createTable = """
        CREATE TABLE IF NOT EXISTS accounts (
            name TEXT PRIMARY KEY,
            role TEXT NOT NULL,
            password_hash TEXT NOT NULL,
            created_at BIGINT NOT NULL
        )
        """
    static let insert = """
        INSERT INTO accounts (name, role, password_hash, created_at) VALUES ($1, $2, $3, $4)
        ON CONFLICT (name) DO NOTHING
        """
    static let selectAll = "SELECT name, role, password_hash, created_at FROM accounts ORDER BY name"
    static let selectOne = "SELECT name, role, password_hash, created_at FROM accounts WHERE name = $1"
    static let delete = "DELETE FROM accounts WHERE name = $1"

    static func values(of account: Account) -> [SQLValue] {
        [.text(account.name), .text(account.role.rawValue), .text(account.passwordHash), .date(account.createdAt)]
    }

    static func account(from row: some DatabaseRow) throws(StoreError) -> Account {
        let role = try row.text(1)
        guard let parsed = AccountRole(rawValue: role) else {
            throw .corrupt("account \(try row.text(0)) has an unknown role \(role)")
        }
        return Account(name: try row.text(0), role: parsed, passwordHash: try row.text(2), createdAt: try row.date(3))
    }
}
