import Foundation
import ProspectsCore

/// Each statement commits on its own, outside `transaction`, so that sessions leave the store's generation alone.
extension PostgresStore: WebSessionStore {
    public func addSession(_ session: WebSession, capacity: Int) throws(StoreError) {
        _ = try connection.execute(WebSessionSQL.insert, WebSessionSQL.values(of: session))
        guard let account = session.account else { return }
        // Two servers adding at once may both trim: each keeps the `capacity` most recent, which is the same rows.
        if let count = try connection.execute(WebSessionSQL.count, [.text(account)]).rows.first?.int(0),
            count > capacity
        {
            _ = try connection.execute(WebSessionSQL.trim, [.integer(Int64(capacity)), .text(account)])
        }
    }

    public func session(key: String) throws(StoreError) -> WebSession? {
        guard let row = try connection.execute(WebSessionSQL.select, [.text(key)]).rows.first else { return nil }
        return try WebSessionSQL.session(from: row)
    }

    public func touchSession(key: String, at date: Date) throws(StoreError) -> Bool {
        try connection.execute(WebSessionSQL.touch, [.text(key), .date(date)]).affectedRows > 0
    }

    public func removeSession(key: String) throws(StoreError) -> Bool {
        try connection.execute(WebSessionSQL.delete, [.text(key)]).affectedRows > 0
    }

    public func removeSessions(usedBefore date: Date) throws(StoreError) -> Int {
        try connection.execute(WebSessionSQL.deleteUnusedSince, [.date(date)]).affectedRows
    }

    public func sessionCount() throws(StoreError) -> Int {
        try connection.execute(WebSessionSQL.countAll).rows.first?.int(0) ?? 0
    }

    public func webKeys(limit: Int) throws(StoreError) -> [WebKey] {
        try connection.execute(WebSessionSQL.keys, [.integer(Int64(limit))]).rows.map { row throws(StoreError) in
            try WebSessionSQL.key(from: row)
        }
    }

    public func addWebKey(secret: String, at date: Date, onlyIfNone: Bool) throws(StoreError) {
        _ = try connection.execute(
            onlyIfNone ? WebSessionSQL.addFirstKey : WebSessionSQL.addKey, [.text(secret), .date(date)])
    }
}
