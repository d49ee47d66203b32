import Foundation
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectStore

#if canImport(Glibc)
    import Glibc
#endif

@Suite("PostgresStore")
struct PostgresStoreTests {
    @Test func unreachableServerFailsFastWithoutThePassword() throws {
        let port = try closedPort()
        let url = "postgres://prospects:secret@127.0.0.1:\(port)/prospects"
        let started = Date()
        expectStoreError({ () throws(StoreError) in _ = try StoreLocation.postgres(url: url).open() }) { error in
            guard case .unavailable(let message) = error else { return false }
            return !message.contains("secret") && message.contains("***") && !message.contains("\n")
        }
        #expect(Date().timeIntervalSince(started) < 5, "a refused connection must not wait for a time-out")
    }

    @Test func aWrongPasswordIsUnavailableAndNotEchoed() throws {
        // The test server trusts every local connection, so point libpq at a password-requiring URL of a
        // server that does not exist on a Unix socket path instead: the message must still hide the password.
        let url = "postgresql://user:hunter2@/db?host=/nonexistent-folder&connect_timeout=1"
        expectStoreError({ () throws(StoreError) in _ = try PostgresStore(url: url) }) { error in
            guard case .unavailable(let message) = error else { return false }
            return !message.contains("hunter2")
        }
    }

    @Test func malformedURLIsAnInvalidLocation() {
        expectStoreError({ () throws(StoreError) in _ = try PostgresStore(url: "postgres://host/db?no_such_option=1") })
        {
            error in
            if case .invalidLocation = error { true } else { false }
        }
    }

    @Test func errorsKeepRowValuesOutOfTheMessage() throws {
        let connection = try PostgresConnection(url: try PostgresTestServer.shared().makeDatabase())
        try connection.execute("CREATE TABLE t (k text UNIQUE)")
        try connection.execute("INSERT INTO t (k) VALUES ($1)", [.text("secret@example.com")])
        expectStoreError({ () throws(StoreError) in
            try connection.execute("INSERT INTO t (k) VALUES ($1)", [.text("secret@example.com")])
        }) { error in
            guard case .database(let code, let message, _) = error else { return false }
            return code == 23505 && message.contains("23505") && !error.message.contains("secret")
        }
    }

    /// `each` reads through a cursor, a batch at a time: every row comes, in order, across batch boundaries; a
    /// stop part-way leaves no transaction or cursor behind; parameters reach the query; and inside a transaction
    /// the caller opened, that transaction stays open and sees its own writes.
    @Test func eachStreamsRowsThroughACursor() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        let connection = try PostgresConnection(url: url)
        try connection.execute("CREATE TABLE t (n integer)")
        try connection.execute("INSERT INTO t (n) SELECT generate_series(1, 2345)")
        var seen: [Int] = []
        try connection.each("SELECT n FROM t WHERE n > $1 ORDER BY n", [.integer(5)], batch: 1_000) {
            row throws(StoreError) in
            seen.append(try row.int(0))
            return true
        }
        #expect(seen == Array(6...2345))

        seen = []
        try connection.each("SELECT n FROM t ORDER BY n", batch: 100) { row throws(StoreError) in
            seen.append(try row.int(0))
            return seen.count < 150
        }
        #expect(seen == Array(1...150))
        #expect(!connection.inTransaction)
        let cursors = try connection.execute("SELECT count(*) FROM pg_cursors WHERE name = 'prospects_rows'")
        #expect(try cursors.rows.first?.int(0) == 0)

        try connection.transaction { () throws(StoreError) in
            try connection.execute("INSERT INTO t (n) VALUES (0)")
            var count = 0
            try connection.each("SELECT n FROM t", batch: 1_000) { _ throws(StoreError) in
                count += 1
                return true
            }
            #expect(count == 2346)
            // The cursor is closed, so a second one of the same name can be declared in the same transaction.
            try connection.each("SELECT n FROM t WHERE n = 0") { _ throws(StoreError) in false }
            // Rows are made only as they are fetched: a stop after 150 rows, fetched 100 at a time, ran the
            // query for 200 of them, not 2,346.
            try connection.execute("CREATE SEQUENCE made")
            var kept = 0
            try connection.each("SELECT n, nextval('made') FROM t", batch: 100) { _ throws(StoreError) in
                kept += 1
                return kept < 150
            }
            #expect(try connection.execute("SELECT currval('made')").rows.first?.int(0) == 200)
        }
        #expect(try connection.execute("SELECT count(*) FROM t").rows.first?.int(0) == 2346)

        // A failing query leaves the connection usable, outside any transaction.
        expectStoreError({ () throws(StoreError) in
            try connection.each("SELECT no_such_column FROM t") { _ throws(StoreError) in true }
        }) { error in if case .database = error { true } else { false } }
        #expect(try connection.execute("SELECT count(*) FROM t").rows.first?.int(0) == 2346)
        #expect(!connection.inTransaction)

        // On a connection found lost, `each` connects again, as every statement does.
        _ = try endSession(of: connection, url: url)
        var count = 0
        try connection.each("SELECT n FROM t") { _ throws(StoreError) in
            count += 1
            return true
        }
        #expect(count == 2346)
    }

    /// `list` on PostgreSQL streams too: a list longer than one fetch comes whole and in order.
    @Test func aListLongerThanOneFetchComesWholeAndInOrder() throws {
        let store = try PostgresStore(url: try PostgresTestServer.shared().makeDatabase())
        _ = try store.record((1...2_500).map { sighting("P \($0)", "p\($0)@example.com") })
        let listed = try store.list(filter: .everyone, sort: .recent, reverse: true).map(\.id)
        #expect(listed == Array(1...2_500))
    }

    @Test func manyStoresStartingAtOnceMigrateOnce() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        let errors = runOnThreads(4) { _, start in
            start.wait()
            _ = try PostgresStore(url: url)
        }
        #expect(errors == [])
        let versions = try PostgresConnection(url: url).execute("SELECT version FROM schema_version").rows
        #expect(versions.map(\.values) == [[String(ProspectSQL.schemaVersion)]])
    }

    /// Writers that meet the same people in different orders (a list imported forwards, backwards, shuffled),
    /// each in one transaction, used to lock the same rows in opposite orders: PostgreSQL broke the deadlocks
    /// after a second each and the retries collided again until one writer gave up with `.busy`. Every writer
    /// must finish, and every sighting must count exactly once.
    @Test func writersMeetingTheSamePeopleInOtherOrdersAllSucceed() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        _ = try PostgresStore(url: url)  // migrated before the race, so that only the sightings race
        let people = 300
        let threads = 4
        let rounds = 3
        // One barrier per round, so that the writers start each round together; a writer that fails a round
        // still waits at the next barriers, so that the others are not left waiting for it.
        let barriers = (0..<rounds).map { _ in ThreadBarrier(count: threads) }
        let failures = LockedList<String>()
        let inserted = LockedList<Int>()
        let errors = runOnThreads(threads) { index, _ in
            var store: PostgresStore?
            for round in 0..<rounds {
                let order: [Int] =
                    switch index {
                    case 0: Array(0..<people)
                    case 1: Array((0..<people).reversed())
                    default: Array(0..<people).shuffled()
                    }
                let sightings = order.map { person in
                    sighting("Person \(person)", "person\(person)@example.com", source: "t\(index)-r\(round)")
                }
                barriers[round].wait()
                do {
                    if store == nil { store = try PostgresStore(url: url) }
                    let results = try store?.record(sightings) ?? []
                    if results.count != people { failures.append("thread \(index): \(results.count) results") }
                    inserted.append(results.count { if case .inserted = $0 { true } else { false } })
                } catch {
                    failures.append("thread \(index), round \(round): \(error)")
                }
            }
        }
        #expect(errors == [])
        #expect(failures.items == [])
        #expect(inserted.items.reduce(0, +) == people, "each address inserted by exactly one sighting")
        let store = try PostgresStore(url: url)
        let stored = try store.list(filter: .everyone, sort: .name, reverse: false)
        #expect(stored.count == people)
        #expect(stored.allSatisfy { $0.scanCount == threads * rounds })
        #expect(Set(stored.map(\.key)) == Set((0..<people).map { "person\($0)@example.com" }))
        let scans = try PostgresConnection(url: url).execute("SELECT count(*) FROM scans").rows
        #expect(
            scans.map(\.values) == [[String(people * (threads * rounds - 1))]], "one history row per later sighting")
    }

    /// Ends `connection`'s server session from another one, as a server restart or an idle timeout would, and lets
    /// libpq find out. Returns the ended session's backend pid.
    private func endSession(of connection: PostgresConnection, url: String) throws -> Int64 {
        let pid = try #require(try connection.execute("SELECT pg_backend_pid()").rows.first?.int64(0))
        try endSession(pid, from: try PostgresConnection(url: url))
        _ = try? connection.execute("SELECT 1")  // fails: only now does libpq know the connection is gone
        return pid
    }

    /// Ends the session of backend `pid` through `admin`, and waits until it is gone: pg_terminate_backend only
    /// signals the backend.
    private func endSession(_ pid: Int64, from admin: PostgresConnection) throws {
        try admin.execute("SELECT pg_terminate_backend($1)", [.integer(pid)])
        let deadline = Date().addingTimeInterval(10)
        while try !admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [.integer(pid)]).rows.isEmpty {
            try #require(Date() < deadline, "the backend did not end")
            usleep(10_000)
        }
    }
}

extension PostgresStoreTests {
    /// A role granted the tables alone may insert through the identity column's default, but may not call
    /// `nextval`, which the store uses to number a call's new prospects in input order: such a role must still
    /// record, its new prospects numbered in key order.
    @Test func aRoleWithoutPrivilegesOnTheIdSequenceStillRecords() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        _ = try PostgresStore(url: url)
        let role = "writer_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = try PostgresConnection(url: url)
        try admin.execute("CREATE ROLE \(role)")
        try admin.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role)")
        defer {
            _ = try? admin.execute("DROP OWNED BY \(role)")
            _ = try? admin.execute("DROP ROLE \(role)")
        }
        // The server's `role` setting, as SET ROLE would: the test's own user may take any role.
        let store = try PostgresStore(url: url + (url.contains("?") ? "&" : "?") + "options=-c%20role%3D\(role)")
        let results = try store.record([
            sighting("Zed", "zed@example.com"), sighting("Amy", "amy@example.com"), sighting("Zed", "ZED@example.com"),
        ])
        guard results.count == 3, case .inserted(let zed) = results[0], case .inserted(let amy) = results[1] else {
            Issue.record("unexpected results \(results)")
            return
        }
        #expect(results[2] == .duplicate(id: zed))
        #expect(amy < zed, "without nextval, ids follow the order of the writes")
        #expect(try store.delete(.id(amy)))
        let entry = LedgerEntry(
            contentHash: "cc", fileName: "c.png", outcome: .inserted, prospects: 1, processedAt: date(1))
        let group = LedgeredSightings(entry: entry, sightings: [sighting("Amy", "amy@example.com")])
        _ = try store.record([group])
        #expect(try store.delete(.email("amy@example.com")))
        guard case .alreadyInLedger(let restored)? = try store.record([group]).first, let newAmy = restored.first ?? nil
        else {
            Issue.record("Amy was not restored")
            return
        }
        #expect(newAmy > amy)
        #expect(try store.count() == 2)
    }
}

extension PostgresStoreTests {
    /// The server ended the store's connection between two transactions (a restart, an administrator, an idle
    /// timeout). libpq learns it only when the next statement fails, so the store must reconnect and run that
    /// transaction again: none of it reached the server. `watch` used to exit 69 after every server restart.
    @Test func aTransactionAfterTheServerEndedTheConnectionReconnects() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        let store = try PostgresStore(url: url)
        #expect(try store.record([sighting("Ann", "ann@example.com")]).count == 1)

        let admin = try PostgresConnection(url: url)
        // The store's connection: libpq's fallback_application_name, in this test's own database.
        let pids = try admin.execute(
            """
            SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'prospects' AND pid <> pg_backend_pid()
            """
        ).rows.map { row throws(StoreError) in try row.int64(0) }
        try #require(pids.count == 1)
        try endSession(pids[0], from: admin)

        let results = try store.record([sighting("Ann", "ANN@example.com"), sighting("Bob", "bob@example.com")])
        #expect(results.count == 2)
        #expect(try store.prospect(.email("ann@example.com"))?.scanCount == 2)
        #expect(try store.count() == 2)
    }

    /// The lock timeout is set on every connection, the one made after the server ended the first included.
    @Test func everyConnectionHasTheLockTimeout() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        let connection = try PostgresConnection(url: url)
        func lockTimeout() throws -> String? { try connection.execute("SHOW lock_timeout").rows.first?.text(0) }
        #expect(try lockTimeout() == "10s")
        let pid = try endSession(of: connection, url: url)
        #expect(try lockTimeout() == "10s")
        #expect(try connection.execute("SELECT pg_backend_pid()").rows.first?.int64(0) != pid)
    }

    /// A lock timeout the owner set (here in the URL) is kept; the store sets its own only where there is none,
    /// and a busy store names the wait that was kept, not ours.
    @Test func aLockTimeoutSetInTheURLIsKept() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        let ownURL = url + (url.contains("?") ? "&" : "?") + "options=-c%20lock_timeout%3D1500"
        let connection = try PostgresConnection(url: ownURL)
        #expect(try connection.execute("SHOW lock_timeout").rows.first?.text(0) == "1500ms")

        let store = try PostgresStore(url: ownURL)
        try connection.execute("BEGIN")
        try connection.execute("LOCK TABLE prospects IN ACCESS EXCLUSIVE MODE")
        defer { _ = try? connection.execute("ROLLBACK") }
        expectStoreError({ () throws(StoreError) in _ = try store.list(filter: .everyone, sort: .name, reverse: false) }
        ) { error in
            guard case .busy(let message) = error else { return false }
            return message.contains("held a lock on the store for 1500ms (the lock_timeout the role, database or URL")
        }
    }

    /// A database not encoded in UTF-8 is refused when the store opens, saying how to make one that is: LATIN1
    /// cannot hold every name, and in SQL_ASCII the name sort would work on bytes, not letters.
    @Test(arguments: ["LATIN1", "SQL_ASCII"])
    func aDatabaseNotEncodedInUTF8IsRefused(encoding: String) throws {
        let url = try PostgresTestServer.shared().makeDatabase(encoding: encoding)
        expectStoreError({ () throws(StoreError) in _ = try PostgresStore(url: url) }) { error in
            guard case .unsupportedDatabase(let message) = error else { return false }
            return message.contains("a database encoded \(encoding);") && message.contains("--encoding=UTF8")
                && !error.isWorthWaitingFor
        }
    }

    /// The connection speaks UTF-8 whatever the URL or `PGCLIENTENCODING` ask for: the server converting our
    /// bytes from another encoding would store names garbled.
    @Test func theClientEncodingIsUTF8WhateverTheURLSays() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        let store = try PostgresStore(url: url + (url.contains("?") ? "&" : "?") + "client_encoding=LATIN1")
        _ = try store.record([sighting("Łukasz Żółć", "lukasz@example.com")])
        let check = try PostgresConnection(url: url)
        #expect(try check.execute("SELECT name FROM prospects").rows.first?.text(0) == "Łukasz Żółć")
        #expect(try check.execute("SELECT length(name) FROM prospects").rows.first?.int64(0) == 11)
    }

    /// A read-only server or session (a standby) refuses writes: a store that refuses this user, saying where to
    /// point instead, not an internal error quoting the SQL.
    @Test func aReadOnlySessionIsPermissionDenied() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        _ = try PostgresStore(url: url)  // the tables, made by a session that may write
        let readOnly = try PostgresStore(
            url: url + (url.contains("?") ? "&" : "?") + "options=-c%20default_transaction_read_only%3Don")
        expectStoreError({ () throws(StoreError) in _ = try readOnly.record([sighting("Ann", "ann@example.com")]) }) {
            error in
            guard case .permissionDenied(let message) = error else { return false }
            return message.contains("point --store at the primary") && !message.contains("INSERT")
        }
    }

    /// A session that holds a lock (a `LOCK TABLE` left open in psql) makes a command wait the lock timeout, then
    /// fail as busy, naming the wait: never hang.
    @Test func aLockHeldByAnotherSessionIsBusyAfterTheTimeoutNotAHang() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        let store = try PostgresStore(url: url)
        let holder = try PostgresConnection(url: url)
        try holder.execute("BEGIN")
        try holder.execute("LOCK TABLE prospects IN ACCESS EXCLUSIVE MODE")
        defer { _ = try? holder.execute("ROLLBACK") }
        let started = Date()
        expectStoreError({ () throws(StoreError) in _ = try store.list(filter: .everyone, sort: .name, reverse: false) }
        ) {
            error in
            guard case .busy(let message) = error else { return false }
            return message.contains("another session held a lock on the store for 10.0 seconds")
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 9 && waited < 20, "waited \(waited) s")
    }

    /// A role that may not create the tables gets a message about privileges and its own status, not an
    /// internal error quoting the SQL.
    @Test func aRoleWithoutThePrivilegeToCreateTheTablesIsTold() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        let role = "reader_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = try PostgresConnection(url: url)
        try admin.execute("CREATE ROLE \(role)")
        try admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        defer { _ = try? admin.execute("DROP ROLE \(role)") }
        let asRole = url + (url.contains("?") ? "&" : "?") + "options=-c%20role%3D\(role)"
        expectStoreError({ () throws(StoreError) in _ = try PostgresStore(url: asRole) }) { error in
            guard case .permissionDenied(let message) = error else { return false }
            return message.contains("permission denied for schema public") && message.contains("CREATE on the schema")
                && !message.contains("CREATE TABLE")
        }
    }
}

/// A local TCP port nothing listens on: bound, then closed.
private func closedPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    try #require(bound)
    return Int(UInt16(bigEndian: address.sin_port))
}
