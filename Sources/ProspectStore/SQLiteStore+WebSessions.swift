import Foundation
import ProspectsCore

extension SQLiteStore: WebSessionStore {
    public func addSession(_ session: WebSession, capacity: Int) throws(StoreError) {
        try database.writeTransaction(movesGeneration: false) { () throws(StoreError) in
            try database.execute(WebSessionSQL.insert, WebSessionSQL.values(of: session))
            guard let account = session.account else { return }
            let count = try database.query(WebSessionSQL.count, [.text(account)]) { row throws(StoreError) in
                try row.int(0)
            }.first
            if let count, count > capacity {
                try database.execute(WebSessionSQL.trim, [.integer(Int64(capacity)), .text(account)])
            }
        }
    }

    public func session(key: String) throws(StoreError) -> WebSession? {
        try database.query(WebSessionSQL.select, [.text(key)]) { row throws(StoreError) in
            try WebSessionSQL.session(from: row)
        }.first
    }

    public func touchSession(key: String, at date: Date) throws(StoreError) -> Bool {
        try changeSessions(WebSessionSQL.touch, [.text(key), .date(date)]) > 0
    }

    public func removeSession(key: String) throws(StoreError) -> Bool {
        try changeSessions(WebSessionSQL.delete, [.text(key)]) > 0
    }

    public func removeSessions(usedBefore date: Date) throws(StoreError) -> Int {
        try changeSessions(WebSessionSQL.deleteUnusedSince, [.date(date)])
    }

    public func sessionCount() throws(StoreError) -> Int {
        try database.query(WebSessionSQL.countAll) { row throws(StoreError) in try row.int(0) }.first ?? 0
    }

    public func webKeys(limit: Int) throws(StoreError) -> [WebKey] {
        try database.query(WebSessionSQL.keys, [.integer(Int64(limit))]) { row throws(StoreError) in
            try WebSessionSQL.key(from: row)
        }
    }

    public func addWebKey(secret: String, at date: Date, onlyIfNone: Bool) throws(StoreError) {
        _ = try changeSessions(
            onlyIfNone ? WebSessionSQL.addFirstKey : WebSessionSQL.addKey, [.text(secret), .date(date)])
    }

    /// One statement in a write transaction that leaves the store's generation alone; how many rows it changed.
    private func changeSessions(_ sql: String, _ values: [SQLValue]) throws(StoreError) -> Int {
        let statement = try database.statement(sql)
        return try database.writeTransaction(movesGeneration: false) { () throws(StoreError) in
            try statement.execute(values)
            return statement.changes
        }
    }
}
