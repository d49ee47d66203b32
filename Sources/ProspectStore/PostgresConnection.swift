import CPostgres
import Foundation
import ProspectsCore

/// One connection to a PostgreSQL server through libpq: always parameterised statements, text values, results
/// copied into Swift values before the `PGresult` is cleared.
///
/// A class rather than a struct because the connection must be finished exactly once, in `deinit`.
final class PostgresConnection {
    /// Seconds to wait for a server before failing, unless the URL sets `connect_timeout` itself.
    static let defaultConnectTimeout = 5
    /// How often a transaction that lost a serialization or deadlock race is run, at most.
    static let transactionAttempts = 8
    /// How long a statement waits for a lock another session holds before failing with `.busy`, as SQLite's busy
    /// timeout. Without it a session holding a lock (a `LOCK TABLE` left open in psql) would hang every command.
    private let lockTimeoutMilliseconds: Int64
    /// The lock wait a busy message names: ours, or the `lock_timeout` the role, database or URL set (`2s`).
    private var lockWaitShown: String

    private let handle: OpaquePointer
    /// Whether the last failure was a race another transaction won (worth running again at once), not a wait.
    private var lostRace = false
    /// Run by every transaction before it commits (the store's generation, once migrated); one opened with
    /// `movesGeneration: false` (sessions) skips it.
    var beforeCommit: String?
    /// The URL with its password replaced, for messages.
    private let redactedURL: String
    /// The password as libpq reads it, and as written in the URL: scrubbed from any message libpq composes.
    private let secrets: [String]

    /// Connects to `url` (a libpq URI). Fails with `.unavailable` within the connect timeout when the server
    /// cannot be reached or refuses us. The corresponding C function is `PQconnectdbParams`.
    init(url: String, lockWait: Duration = StoreLocation.defaultLockWait) throws(StoreError) {
        lockTimeoutMilliseconds = max(1, lockWait.wholeMilliseconds)
        lockWaitShown = "\(Duration.milliseconds(lockTimeoutMilliseconds))"
        redactedURL = StoreLocation.redactPassword(in: url)
        let password = try Self.password(in: url, redactedURL: redactedURL)
        let written = StoreLocation.writtenPassword(in: url).map { String(url[$0]) }
        // Two characters or fewer would garble every message (and show where they were) to hide next to nothing.
        secrets = [password, written, written?.removingPercentEncoding].compactMap { $0 }.filter { $0.count > 2 }
            .sorted { $0.count > $1.count }  // a longer secret first, so none is left half-hidden
        // Keywords are applied in order and the URL (expanded from `dbname`) comes after the defaults, so a
        // connect_timeout in the URL overrides the one given first.
        // client_encoding comes after the URL, so that neither it nor PGCLIENTENCODING can make the server take our
        // UTF-8 for another encoding. Both arrays end with NULL, as libpq requires.
        let keywords = ["connect_timeout", "fallback_application_name", "dbname", "client_encoding", nil]
        let values = [String(Self.defaultConnectTimeout), "prospects", url, "UTF8", nil]
        let connection = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let connection else { throw .unavailable("cannot connect to \(redactedURL): out of memory") }
        handle = connection
        // From here on a failure releases self, and deinit finishes the connection.
        guard PQstatus(connection) == CONNECTION_OK else {
            throw .unavailable("cannot connect to \(redactedURL): \(connectionMessage())")
        }
        prospects_pg_silence_notices(connection)
        try requireUnicode()
        try limitLockWaits()
    }

    /// Refuses a database not encoded in UTF-8. LATIN1 cannot hold every name (Łukasz, 王), and in SQL_ASCII the
    /// name sort's `translate` works on bytes, not letters, so `list --sort name` would differ from SQLite's.
    private func requireUnicode() throws(StoreError) {
        let encoding = PQparameterStatus(handle, "server_encoding").map { String(cString: $0) } ?? "unknown"
        guard encoding != "UTF8" else { return }
        throw .unsupportedDatabase(
            "\(redactedURL) is a database encoded \(encoding); prospects keeps names in Unicode and needs one "
                + "encoded UTF8 (createdb --encoding=UTF8 --template=template0 NAME)")
    }

    /// Sets the session's lock timeout. A `SET` rather than the `options` startup parameter, which connection
    /// poolers such as PgBouncer refuse by default; run again on every new connection.
    private func limitLockWaits() throws(StoreError) {
        // A timeout set already (in the URL's `options`, or for the role or database) is the owner's choice.
        let current = try execute("SHOW lock_timeout").rows.first.map { row throws(StoreError) in try row.text(0) }
        guard current == "0" else {
            lockWaitShown = current.map { "\($0) (the lock_timeout the role, database or URL sets)" } ?? lockWaitShown
            return
        }
        try execute("SET lock_timeout = \(lockTimeoutMilliseconds)")
    }

    deinit {
        PQfinish(handle)
    }

    /// Runs one statement with `values` as text parameters `$1`, `$2`…. The corresponding C function is
    /// `PQexecParams`.
    @discardableResult
    func execute(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> PostgresResult {
        // libpq knows the connection is dead only once a statement has failed on it (a server restart or an
        // idle timeout shows only then; `transaction` runs such a transaction again). A caller that goes on
        // after that failure, or after a COMMIT whose outcome was lost, gets one attempt to reconnect here.
        if PQstatus(handle) != CONNECTION_OK { try reconnect() }
        var texts: [String?] = []
        texts.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .null: texts.append(nil)
            case .integer(let number): texts.append(String(number))
            case .bool(let flag): texts.append(flag ? "true" : "false")
            case .text(let text):
                // A C string would silently end at a NUL; PostgreSQL could not store it anyway.
                try ProspectSQL.rejectNUL(text)
                texts.append(text)
            }
        }
        let result = withCStrings(texts) { pointers in
            PQexecParams(handle, sql, Int32(texts.count), nil, pointers, nil, nil, 0)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return PostgresResult(copying: result)
        default: throw error(result: result, sql: sql)
        }
    }

    /// Whether a transaction block is open on the connection, perhaps failed and waiting for its rollback; false
    /// when it is idle, or lost (the next statement connects again).
    var inTransaction: Bool {
        switch PQtransactionStatus(handle) {
        case PQTRANS_INTRANS, PQTRANS_INERROR, PQTRANS_ACTIVE: true
        default: false
        }
    }

    /// Runs a query through a cursor and hands its rows to `body` one by one, until `body` returns false, fetching
    /// `batch` rows at a time: a long result is never held whole, as libpq's result and again as our copy of it.
    /// Inside a read-only transaction of its own (or the one open already), so that every row comes from one
    /// snapshot; that transaction stays open while `body` works (a pager, a slow pipe), so a server's
    /// `idle_in_transaction_session_timeout` may end a list read that slowly. Never run again after a failure:
    /// `body` may have acted on rows already. One at a time per connection: the cursor has one name.
    func each(
        _ sql: String, _ values: [SQLValue] = [], batch: Int = 1_000, _ body: (PostgresRow) throws(StoreError) -> Bool
    ) throws(StoreError) {
        precondition(batch > 0, "a fetch of no rows would never end")
        let ownTransaction = !inTransaction
        if ownTransaction { try execute("BEGIN READ ONLY") }
        do throws(StoreError) {
            try execute("DECLARE prospects_rows NO SCROLL CURSOR FOR \(sql)", values)
            reading: while true {
                let rows = try execute("FETCH \(batch) FROM prospects_rows").rows
                for row in rows {
                    guard try body(row) else { break reading }
                }
                if rows.count < batch { break }
            }
            try execute(ownTransaction ? "COMMIT" : "CLOSE prospects_rows")
        } catch {
            if PQstatus(handle) == CONNECTION_OK, inTransaction {
                // The caller's transaction is the caller's to end; its cursor is ours, when it can still be closed.
                _ = try? execute(ownTransaction ? "ROLLBACK" : "CLOSE prospects_rows")
            }
            throw error
        }
    }

    /// Runs `body` in a transaction, committing when it returns and rolling back when it throws. A transaction
    /// that lost a serialization or deadlock race against another process (`.busy`) is run again from the start,
    /// up to `transactionAttempts` times. One that found the connection dead before its COMMIT (the server
    /// restarted, or ended the session) is run again once on a new connection; `body` must therefore keep no
    /// state between runs.
    ///
    /// `movesGeneration` false: the writes are no change of the list (sessions), and leave `beforeCommit` out.
    func transaction<T>(movesGeneration: Bool = true, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        var attempt = 1
        var reconnected = false
        while true {
            var committing = false
            do {
                try execute("BEGIN")
                let result = try body()
                // Last, so that the generation's row lock is held only while the transaction commits.
                if movesGeneration, let beforeCommit { try execute(beforeCommit) }
                committing = true
                try execute("COMMIT")
                return result
            } catch {
                if PQstatus(handle) != CONNECTION_OK {
                    // Before COMMIT, the server rolls back whatever of the transaction it had when the connection
                    // died, so running it again from the start counts nothing twice. A COMMIT whose reply was lost
                    // may have committed: that is reported, never run again.
                    guard !committing, !reconnected else { throw error }
                    reconnected = true
                    try reconnect()
                    continue
                }
                if inTransaction { _ = try? execute("ROLLBACK") }
                guard case .busy = error, lostRace, attempt < Self.transactionAttempts else { throw error }
                usleep(Self.pause(beforeAttempt: attempt + 1))
                attempt += 1
            }
        }
    }

    /// Microseconds to wait before running a transaction that lost a race again: 10 ms, doubling with each
    /// attempt up to 1 s, each time a random part of it from half to all, so that the writers that collided
    /// do not start again together and the one that won has time to commit.
    private static func pause(beforeAttempt attempt: Int) -> UInt32 {
        let ceiling = min(10_000 << min(attempt - 2, 7), 1_000_000)
        return UInt32.random(in: UInt32(ceiling / 2)...UInt32(ceiling))
    }

    /// Connects again with the same parameters, once. The corresponding C function is `PQreset`.
    private func reconnect() throws(StoreError) {
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw .unavailable("lost the connection to \(redactedURL): \(connectionMessage())")
        }
        try limitLockWaits()
    }

    /// The one place that turns a failed result into a `StoreError`. Only the primary message is used: the
    /// DETAIL line may quote row values ("Key (email_key)=(…) already exists").
    private func error(result: OpaquePointer?, sql: String) -> StoreError {
        let state = result.flatMap { PQresultErrorField($0, prospects_pg_diag_sqlstate()) }.map { String(cString: $0) }
        let primary = result.flatMap { PQresultErrorField($0, prospects_pg_diag_message_primary()) }
            .map { String(cString: $0) }
        let message = scrub(primary ?? connectionMessage())
        if PQstatus(handle) != CONNECTION_OK {
            return .unavailable("lost the connection to \(redactedURL): \(message)")
        }
        guard let state else { return .database(code: 0, message: message, sql: sql) }
        let described = "\(message) (SQLSTATE \(state))"
        lostRace = state == "40001" || state == "40P01"
        switch state {
        // serialization_failure, deadlock_detected: another transaction won a race.
        case "40001", "40P01": return .busy(described)
        // lock_not_available: another session held a lock past the lock timeout.
        case "55P03":
            return .busy("\(redactedURL): another session held a lock on the store for \(lockWaitShown) (\(message))")
        // read_only_sql_transaction: a standby, or a session made read-only.
        case "25006":
            return .permissionDenied(
                "\(described). The server or session only reads (a standby, or default_transaction_read_only): "
                    + "point --store at the primary")
        // insufficient_privilege: the statement is no use to the person, the privilege is.
        case "42501":
            return .permissionDenied(
                "\(described). The role needs CREATE on the schema for the first run on a database (which creates the "
                    + "tables), then SELECT, INSERT, UPDATE and DELETE on the tables and USAGE on their sequences")
        // disk_full, io_error: the server's storage, not the statement.
        case "53100", "58030":
            return .storageFailed(
                "the server at \(redactedURL) could not write: \(described)", diskFull: state == "53100")
        // connection exceptions, operator intervention (shutdown), too many connections, authorization
        case _ where state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" || state.hasPrefix("28"):
            return .unavailable(described)
        default:
            // SQLSTATEs are five characters; most are digits. A non-numeric one is kept in the message only.
            return .database(code: Int32(state) ?? 0, message: described, sql: sql)
        }
    }

    /// libpq's message about the connection on one line, without any password. libpq writes one line per
    /// address it tried ("connection to server at … failed: Connection refused", "Is the server running…").
    private func connectionMessage() -> String {
        let lines = String(cString: PQerrorMessage(handle)).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return scrub(lines.isEmpty ? "unknown error" : lines.joined(separator: "; "))
    }

    private func scrub(_ message: String) -> String {
        secrets.reduce(message) { text, secret in text.replacingOccurrences(of: secret, with: "***") }
    }

    /// The password libpq will use from `url`, found with libpq's own parser. The C function is `PQconninfoParse`.
    private static func password(in url: String, redactedURL: String) throws(StoreError) -> String? {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &message) else {
            // libpq's message quotes the token it choked on, which may be the password: only the one that names
            // an unknown parameter is passed on, and only its name.
            let text = message.map { String(cString: $0) } ?? ""
            PQfreemem(message)
            let prefix = "invalid URI query parameter: \""
            if text.hasPrefix(prefix), let end = text.dropFirst(prefix.count).firstIndex(of: "\"") {
                let name = text[text.index(text.startIndex, offsetBy: prefix.count)..<end]
                if !name.lowercased().contains("password") {
                    throw .invalidLocation(
                        "\(redactedURL): libpq knows no URL parameter '\(name)' (see libpq's connection parameters)")
                }
            }
            throw .invalidLocation(
                "\(redactedURL): not a URL libpq can read (check %-escapes, and [ ] around an IPv6 address)")
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password" { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }
}

@available(*, unavailable)
extension PostgresConnection: Sendable {}

/// Calls `body` with a C array of C strings (NULL for nil) that lives as long as the call.
private func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { $0.map { strdup($0) } ?? nil }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
