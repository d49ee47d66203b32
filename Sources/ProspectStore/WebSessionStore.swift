import Foundation
import ProspectsCore

/// The sessions kept in a store (schema 5), only of accounts signed in, and the keys of visitors' form tokens
/// (schema 6). Their writes do not move the store's change generation: a session begun changes no page.
public protocol WebSessionStore: AnyObject {
    /// Adds the session; then, past `capacity` sessions of its account, forgets that account's least recently used.
    func addSession(_ session: WebSession, capacity: Int) throws(StoreError)
    func session(key: String) throws(StoreError) -> WebSession?
    /// Records a use of the session (its idle time starts again); false when there is none.
    func touchSession(key: String, at date: Date) throws(StoreError) -> Bool
    /// Ends the session; false when there was none.
    func removeSession(key: String) throws(StoreError) -> Bool
    /// Ends every session last used before `date`; how many.
    func removeSessions(usedBefore date: Date) throws(StoreError) -> Int
    /// How many sessions the store holds, of every account.
    func sessionCount() throws(StoreError) -> Int
    /// The form-token keys, newest first (at most `limit`).
    func webKeys(limit: Int) throws(StoreError) -> [WebKey]
    /// Adds a key with the next id: the newest from then on (`onlyIfNone`: only when the store has none yet, so
    /// that servers starting together make one between them).
    func addWebKey(secret: String, at date: Date, onlyIfNone: Bool) throws(StoreError)
}

/// The SQL of the sessions table, the same on SQLite and PostgreSQL.
enum WebSessionSQL {
    static let insert = """
        INSERT INTO web_sessions (session_key, csrf_token, account, role, created_at, last_used_at) \
        VALUES ($1, $2, $3, $4, $5, $6)
        """
    static let count = "SELECT count(*) FROM web_sessions WHERE account = $1"
    static let countAll = "SELECT count(*) FROM web_sessions"
    /// Keeps the `$1` most recently used of account `$2`.
    static let trim = """
        DELETE FROM web_sessions WHERE account = $2 AND session_key NOT IN \
        (SELECT session_key FROM web_sessions WHERE account = $2 ORDER BY last_used_at DESC, created_at DESC LIMIT $1)
        """
    static let keys = "SELECT id, secret, created_at FROM web_keys ORDER BY id DESC LIMIT $1"
    /// The `WHERE` keeps SQLite from reading `ON CONFLICT` as a join's `ON`.
    static let addKey = """
        INSERT INTO web_keys (id, secret, created_at) SELECT coalesce(max(id), 0) + 1, $1, $2 FROM web_keys \
        WHERE true ON CONFLICT DO NOTHING
        """
    static let addFirstKey = """
        INSERT INTO web_keys (id, secret, created_at) SELECT 1, $1, $2 \
        WHERE NOT EXISTS (SELECT 1 FROM web_keys) ON CONFLICT DO NOTHING
        """

    static func key(from row: some DatabaseRow) throws(StoreError) -> WebKey {
        WebKey(id: try row.int64(0), secret: try row.text(1), createdAt: try row.date(2))
    }
    static let select = """
        SELECT session_key, csrf_token, account, role, created_at, last_used_at FROM web_sessions WHERE session_key = $1
        """
    static let touch = "UPDATE web_sessions SET last_used_at = $2 WHERE session_key = $1"
    static let delete = "DELETE FROM web_sessions WHERE session_key = $1"
    static let deleteUnusedSince = "DELETE FROM web_sessions WHERE last_used_at < $1"

    static func values(of session: WebSession) -> [SQLValue] {
        [
            .text(session.key), .text(session.csrfToken), .text(session.account),
            session.role.map { .text($0.rawValue) } ?? .null, .date(session.createdAt), .date(session.lastUsedAt),
        ]
    }

    static func session(from row: some DatabaseRow) throws(StoreError) -> WebSession {
        let role = try row.optionalText(3)
        let parsed = try role.map { text throws(StoreError) in
            guard let role = AccountRole(rawValue: text) else {
                throw .corrupt("a session has an unknown role \(text)")
            }
            return role
        }
        return WebSession(
            key: try row.text(0), csrfToken: try row.text(1), account: try row.optionalText(2), role: parsed,
            createdAt: try row.date(4), lastUsedAt: try row.date(5))
    }
}
