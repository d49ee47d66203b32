import Foundation
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectStore

@Suite("SQLiteStore")
struct SQLiteStoreTests {
    @Test func databaseAndItsWALFilesAreOwnerOnly() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("private.sqlite")
        let store = try SQLiteStore(path: path)
        _ = try store.record([sighting("A", "a@example.com")])
        // The -wal and -shm files exist while a connection is open.
        for file in [path, path + "-wal", path + "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
            #expect(mode == 0o600, "\(file) has mode \(String(mode ?? 0, radix: 8))")
        }
        withExtendedLifetime(store) {}
    }

    /// A store deleted or replaced under an open connection takes no more commits: SQLite would go on writing into
    /// the unlinked files, and a watcher would archive pictures whose prospects are in no store. A `-shm` made anew
    /// by another connection would let the two overwrite each other's commits.
    @Test(arguments: [["", "-wal", "-shm"], ["-wal"], ["", "-wal", "-shm", "replaced"], ["-shm", "replaced"]])
    func aStoreDeletedWhileOpenRefusesToCommit(removed: [String]) throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("gone.sqlite")
        let store = try SQLiteStore(path: path)
        _ = try store.record([sighting("A", "a@example.com")])
        for suffix in removed where suffix != "replaced" { try FileManager.default.removeItem(atPath: path + suffix) }
        if removed.contains("replaced") { _ = try SQLiteStore(path: path) }
        expectStoreError({ () throws(StoreError) in _ = try store.record([sighting("B", "b@example.com")]) }) { error in
            if case .storageFailed(let message, diskFull: false) = error {
                message.contains("gone.sqlite") && message.contains("was deleted or replaced")
            } else {
                false
            }
        }
        withExtendedLifetime(store) {}
    }

    /// A disk I/O error says which operation failed and why, from SQLite's extended code and the system's errno.
    @Test func anIOErrorSaysWhatFailed() {
        let fsync: Int32 = 10 | (4 << 8)  // SQLITE_IOERR_FSYNC
        #expect(SQLiteDatabase.ioDetail(fsync, nil) == "; fsync failed")
        #expect(SQLiteDatabase.ioDetail(10 | (21 << 8), nil) == "; shared-memory map failed")
        #expect(SQLiteDatabase.ioDetail(10, nil) == "")
        #expect(SQLiteDatabase.ioDetail(10 | (99 << 8), nil) == "")
    }

    @Test func missingFolderIsUnavailable() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("no/such/folder/prospects.sqlite")
        expectStoreError({ () throws(StoreError) in _ = try SQLiteStore(path: path) }) { error in
            if case .unavailable(let message) = error { message.contains("does not exist") } else { false }
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileThatIsNotADatabaseIsUnavailableAndNamed() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("notes.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        expectStoreError({ () throws(StoreError) in _ = try SQLiteStore(path: path) }) { error in
            if case .unavailable(let message) = error { message.contains("cannot open \(path)") } else { false }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x41, count: 4096))
    }

    @Test func usesWALForeignKeysAndCommitsThatSurviveAPowerCut() throws {
        let folder = try TemporaryDirectory()
        _ = try SQLiteStore(path: folder.file("db.sqlite"))
        let database = try SQLiteDatabase(path: folder.file("db.sqlite"))
        #expect(try database.query("PRAGMA journal_mode") { row throws(StoreError) in try row.text(0) } == ["wal"])
        #expect(try database.query("PRAGMA foreign_keys") { row throws(StoreError) in try row.int(0) } == [1])
        // 2 is FULL: the WAL is synced at every commit, before `watch` moves the file it came from.
        #expect(try database.query("PRAGMA synchronous") { row throws(StoreError) in try row.int(0) } == [2])
        // 16 KiB pages, and a checkpoint every 16 MiB of WAL, not SQLite's 4 MiB: a bulk import writes fewer pages
        // and copies each back half as often.
        #expect(try database.query("PRAGMA page_size") { row throws(StoreError) in try row.int(0) } == [16_384])
        try database.enableWAL()
        #expect(try database.query("PRAGMA wal_autocheckpoint") { row throws(StoreError) in try row.int(0) } == [1024])
    }

    /// A store made with SQLite's 4 KiB pages (every store before 16 KiB ones) keeps them, and its WAL still
    /// checkpoints every 16 MiB.
    @Test func aStoreWithSmallerPagesKeepsThem() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("old.sqlite")
        do {
            let old = try SQLiteDatabase(path: path)
            try old.executeScript("PRAGMA page_size = 4096")
            for script in ProspectStoreConformanceTests.version1Script(.sqlite) { try old.executeScript(script) }
        }
        let store = try SQLiteStore(path: path)
        #expect(try store.record([sighting("A", "a@example.com")]) == [.inserted(id: 3)])
        let database = try SQLiteDatabase(path: path)
        #expect(try database.query("PRAGMA page_size") { row throws(StoreError) in try row.int(0) } == [4096])
        try database.enableWAL()
        #expect(try database.query("PRAGMA wal_autocheckpoint") { row throws(StoreError) in try row.int(0) } == [4096])
        withExtendedLifetime(store) {}
    }

    /// `--store` pointed at another program's database: refused, and the file left exactly as it was (no tables
    /// of ours, still in its own journal mode).
    @Test func anotherProgramsDatabaseIsRefusedAndLeftAsItWas() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("notes.db")
        do {
            let other = try SQLiteDatabase(path: path)
            try other.executeScript("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        expectStoreError({ () throws(StoreError) in _ = try SQLiteStore(path: path) }) { error in
            if case .unavailable(let message) = error {
                message.contains("another program's SQLite database (tables: notes)")
            } else {
                false
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func errorsCarryTheSQLButNotTheValues() throws {
        let folder = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: folder.file("db.sqlite"))
        try database.executeScript("CREATE TABLE t (k TEXT UNIQUE)")
        try database.execute("INSERT INTO t (k) VALUES ($1)", [.text("secret@example.com")])
        expectStoreError({ () throws(StoreError) in
            try database.execute("INSERT INTO t (k) VALUES ($1)", [.text("secret@example.com")])
        }) { error in
            guard case .database(let code, _, let sql) = error else { return false }
            return code == 2067 /* SQLITE_CONSTRAINT_UNIQUE */ && sql == "INSERT INTO t (k) VALUES ($1)"
                && !error.message.contains("secret")
        }
    }

    /// A bulk load's batches share one commit: another connection sees none of them until the body returns.
    @Test func recordsInOneTransactionCommitTogether() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("db.sqlite")
        let store = try SQLiteStore(path: path)
        let other = try SQLiteStore(path: path)
        try store.inOneTransaction { () throws(StoreError) in
            _ = try store.record([sighting("A", "a@example.com")])
            _ = try store.record([sighting("B", "b@example.com"), sighting("A", "A@example.com", source: "b.png")])
            #expect(try other.count() == 0, "nothing is committed before the body returns")
        }
        #expect(try other.count() == 2)
        let a = try #require(try other.prospect(.email("a@example.com")))
        #expect(a.scanCount == 2 && a.id == 1)
        #expect(try other.history(of: a.id).map(\.source) == ["a.png", "b.png"])
    }

    /// Text is bound from memory the statement owns and reuses: each run must store exactly its own texts, when
    /// they outgrow that memory, when a run binds fewer or shorter ones than the last, and when one value fills two
    /// parameters. An empty text is text, not NULL.
    @Test func boundTextIsStoredExactlyFromRunToRun() throws {
        let folder = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: folder.file("db.sqlite"))
        try database.execute("CREATE TABLE t (n INTEGER, a TEXT, b TEXT, c TEXT)")
        let long = String(repeating: "Ødegård ", count: 100)  // 900 bytes: past the first buffer
        let runs: [[SQLValue]] = [
            [.integer(1), .text("short"), .text("é"), .null],
            [.integer(2), .text(long), .text(long + "!"), .text("x")],
            [.integer(3), .text(""), .text("b"), .text("")],
            [.integer(4), .text("Zoë"), .null, .text(String(repeating: "z", count: 5000))],
        ]
        for values in runs {
            try database.execute("INSERT INTO t (n, a, b, c) VALUES ($1, $2, $3, $4)", values)
        }
        // $2 twice: both parameters get the same text.
        try database.execute(
            "INSERT INTO t (n, a, b, c) VALUES ($1, $2, $2, $3)", [.integer(5), .text("twice"), .null])
        let stored = try database.query("SELECT a, b, c FROM t ORDER BY n") { row throws(StoreError) in
            [try row.optionalText(0), try row.optionalText(1), try row.optionalText(2)]
        }
        #expect(stored[0] == ["short", "é", nil])
        #expect(stored[1] == [long, long + "!", "x"])
        #expect(stored[2] == ["", "b", ""])
        #expect(stored[3] == ["Zoë", nil, String(repeating: "z", count: 5000)])
        #expect(stored[4] == ["twice", "twice", nil])
        // The byte count, not a terminating NUL, ends the text.
        try database.execute("INSERT INTO t (n, a) VALUES ($1, $2)", [.integer(6), .text("a\u{0}b")])
        let nul = try database.query("SELECT a, length(CAST(a AS BLOB)) FROM t WHERE n = 6") {
            row throws(StoreError) in (try row.text(0), try row.int(1))
        }
        #expect(nul.first?.0 == "a\u{0}b" && nul.first?.1 == 3)
        // A run still stepping reads its text in place, so the statement refuses to run again inside its own rows.
        let sql = "SELECT a FROM t WHERE a > $1 ORDER BY n"
        expectStoreError({ () throws(StoreError) in
            _ = try database.query(sql, [.text("")]) { _ throws(StoreError) in
                try database.query(sql, [.text("b")]) { row throws(StoreError) in try row.text(0) }
            }
        }) { error in error.message.contains("already running") }
    }

    /// A `record` that fails inside the transaction may have written part of its rows; the transaction must not
    /// commit them, even when the body catches the error and returns.
    @Test func aRecordThatFailsInsideDoomsTheWholeTransaction() throws {
        let folder = try TemporaryDirectory()
        let store = try SQLiteStore(path: folder.file("db.sqlite"))
        expectStoreError({ () throws(StoreError) in
            try store.inOneTransaction { () throws(StoreError) in
                _ = try store.record([sighting("A", "a@example.com")])
                // The second sighting's NUL fails the call after its first sighting was written.
                _ = try? store.record([sighting("B", "b@example.com"), sighting("C\u{0}", "c@example.com")])
            }
        }) { error in if case .database(0, let message, _) = error { message.contains("NUL") } else { false } }
        #expect(try store.count() == 0)
        // The connection is usable again, outside any transaction.
        _ = try store.record([sighting("D", "d@example.com")])
        #expect(try store.count() == 1)
    }

    /// A known key's upsert leaves the connection's last inserted rowid as it was, and a scan row inserted before
    /// may have had the very id a new prospect would get: that must not pass for an insert.
    @Test func aRepeatIsADuplicateWhenTheLastScanRowHadTheNextProspectID() throws {
        let folder = try TemporaryDirectory()
        let store = try SQLiteStore(path: folder.file("db.sqlite"))
        _ = try store.record([sighting("A", "a@example.com"), sighting("B", "b@example.com")])
        // Scan rows 1, 2 and 3; the next prospect id is 3.
        for _ in 1...3 { _ = try store.record([sighting("A", "a@example.com")]) }
        #expect(try store.record([sighting("A", "a@example.com")]) == [.duplicate(id: 1)])
        #expect(try store.count() == 2)
        #expect(try store.prospect(.id(1))?.scanCount == 5)
        #expect(try store.record([sighting("C", "c@example.com")]) == [.inserted(id: 3)])
    }
}
