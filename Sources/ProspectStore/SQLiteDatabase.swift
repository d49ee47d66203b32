import CSQLite
import Foundation
import ProspectsCore

#if canImport(Glibc)
    import Glibc
#endif

/// One connection to an SQLite file, configured for several processes writing at once: a busy timeout, foreign
/// keys on, and WAL once the caller switches it on. Statements are compiled once and cached, since ingest runs
/// the same few statements a lot.
///
/// A class rather than a struct because the connection must be closed exactly once, in `deinit`.
final class SQLiteDatabase {
    /// How long a writer waits for another process's transaction before giving up with `.busy`.
    private let busyTimeoutMilliseconds: Int32

    /// Process-wide settings, applied before the first connection opens (a global's initialiser runs once).
    private static let configureOnce: Void = {
        _ = prospects_sqlite_disable_memory_statistics()
    }()

    let path: String
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// The error of a `writeTransaction` that failed inside another: the outer one must roll back, not commit.
    private var doomedBy: StoreError?
    /// Between the outermost `writeTransaction`'s BEGIN and its end, whatever SQLite did meanwhile.
    private var inWriteTransaction = false
    /// Run by every outermost write transaction before it commits (the store's generation, once migrated); a
    /// transaction opened with `movesGeneration: false` (sessions) skips it.
    var beforeCommit: String?
    /// `enableWAL` succeeded: the connection keeps `-wal` and `-shm` files beside the database while it is open.
    private var usesWAL = false
    /// The device and inode of the files this connection writes, by suffix (`""`, `-wal`, `-shm`), as first seen.
    private var fileIDs: [String: [UInt64]] = [:]

    /// Opens the database file at `path`; when it is missing, creates it with mode 0600 if `create`, else throws
    /// `.unavailable`. The corresponding C function is `sqlite3_open_v2`.
    init(path: String, create: Bool = true, lockWait: Duration = StoreLocation.defaultLockWait) throws(StoreError) {
        busyTimeoutMilliseconds = Int32(clamping: lockWait.wholeMilliseconds)
        _ = Self.configureOnce
        if create {
            try Self.createPrivateFile(path)
        } else {
            try Self.requireExistingStore(path)
        }
        var connection: OpaquePointer?
        // NOMUTEX: the type is not Sendable, so SQLite's own per-connection mutex would only cost time.
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = Self.error(code: code, connection: connection, sql: nil)
            // sqlite3_open_v2 allocates a handle even when it fails; it must still be closed.
            sqlite3_close_v2(connection)
            switch error {
            case .database(_, let message, _): throw .unavailable("cannot open \(path): \(message)")
            default: throw error
            }
        }
        self.path = path
        self.handle = connection
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        // From here on a failure releases self, and deinit closes the connection. WAL is the caller's to switch on
        // (`enableWAL`), once it knows the file is its own.
        try execute("PRAGMA foreign_keys = ON")
        // FULL syncs the WAL at every commit. NORMAL survives a crashed process but may roll back the last commits
        // after a power cut, and `watch` moves a file to the archive once its commit returns: the file would be
        // archived while its prospects were gone. The cost is one fsync per transaction, and every bulk path
        // batches thousands of rows into one.
        try execute("PRAGMA synchronous = FULL")
        // SQLite's default 2 MB page cache holds the rows and dedup index of about 10,000 prospects; past that,
        // every write transaction re-read and rewrote evicted index pages. Pages are allocated only as they are
        // used, so a small store costs no more.
        try execute("PRAGMA cache_size = -16384")
    }

    deinit {
        statements.removeAll()
        // _v2 defers the close until any statement still referenced elsewhere is finalized.
        sqlite3_close_v2(handle)
    }

    /// The cached compiled statement for `sql`, compiling it on first use; `placeholders` as `SQLiteStatement` takes
    /// them, for text with `:name` parameters.
    func statement(_ sql: String, placeholders: [String] = []) throws(StoreError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let statement = try SQLiteStatement(sql: sql, connection: handle, placeholders: placeholders)
        statements[sql] = statement
        return statement
    }

    /// The cached compiled statement for `sql`, whose `:name` parameters are the cases of `Parameter`.
    func statement<Parameter: SQLParameter>(_ sql: String, _: Parameter.Type) throws(StoreError) -> SQLiteStatement {
        try statement(sql, placeholders: Parameter.placeholders)
    }

    /// Runs one statement to completion.
    func execute(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) {
        try statement(sql).execute(values)
    }

    /// Runs one statement and hands its rows to `body` one by one, until `body` returns false.
    func each(_ sql: String, _ values: [SQLValue] = [], _ body: (SQLiteRow) throws(StoreError) -> Bool)
        throws(StoreError)
    {
        try statement(sql).each(values, body)
    }

    /// Runs one statement and maps its rows.
    func query<T>(_ sql: String, _ values: [SQLValue] = [], map: (SQLiteRow) throws(StoreError) -> T)
        throws(StoreError) -> [T]
    {
        try statement(sql).query(values, map: map)
    }

    /// Runs several `;`-separated statements without parameters (schema scripts). The C function is `sqlite3_exec`.
    func executeScript(_ sql: String) throws(StoreError) {
        // The message is read from the connection, which names the file (`error(code:connection:sql:)`).
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw Self.error(code: code, connection: handle, sql: sql) }
    }

    /// Runs `body` in a write transaction, committing when it returns and rolling back when it throws.
    ///
    /// Inside another one, `body` joins it. A savepoint would let a failed `body` undo only its own writes, but
    /// it copies each page it changes to a statement journal, doubling a bulk import's writes; instead a failure
    /// anywhere inside dooms the whole transaction, so that no half-done `body` can commit.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock up front: a deferred transaction that reads and then writes gets
    /// SQLITE_BUSY at once, without waiting, when another process wrote in between.
    ///
    /// `movesGeneration` false: the writes are no change of the list (sessions), and leave `beforeCommit` out.
    func writeTransaction<T>(movesGeneration: Bool = true, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        if inWriteTransaction {
            // After a failure (SQLite may even have rolled everything back itself, on a full disk), nothing more may
            // run: outside the transaction, each statement would commit on its own.
            if let doomedBy { throw doomedBy }
            do {
                return try body()
            } catch {
                doomedBy = doomedBy ?? error
                throw error
            }
        }
        try execute("BEGIN IMMEDIATE")
        inWriteTransaction = true
        doomedBy = nil
        defer { inWriteTransaction = false }
        do throws(StoreError) {
            let result = try body()
            if let doomedBy { throw doomedBy }
            if movesGeneration, let beforeCommit { try execute(beforeCommit) }
            try checkInPlace()
            try execute("COMMIT")
            // A file deleted between the check and the commit: what was committed is in no file.
            try checkInPlace()
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Throws `.storageFailed` when the database, its WAL or its shared-memory index is no longer the file first
    /// seen at its path (deleted, or replaced by another). SQLite goes on committing into the open, unlinked files,
    /// which nobody can open again: a watcher would archive pictures whose prospects are in no store. A `-shm`
    /// deleted and made anew by another process splits the writers in two, and one overwrites the other's commits.
    /// The path is the one given, so a folder above it renamed is no reason to stop. The C function is `stat`.
    private func checkInPlace() throws(StoreError) {
        for suffix in usesWAL ? ["", "-wal", "-shm"] : [""] {
            var info = stat()
            let found: [UInt64]?
            if stat(path + suffix, &info) == 0 {
                found = [UInt64(info.st_dev), UInt64(info.st_ino)]
            } else if errno == ENOENT || errno == ENOTDIR {
                found = nil
            } else {
                continue  // cannot tell (a folder made unreadable): SQLite's own calls will say
            }
            if let known = fileIDs[suffix] {
                if found == known { continue }
            } else {
                fileIDs[suffix] = found
                // The WAL and its index are made on first use; the database itself must be there.
                if found != nil || !suffix.isEmpty { continue }
            }
            throw .storageFailed(
                "\(path)\(suffix) was deleted or replaced while this process had it open, so nothing more is "
                    + "written to it; start again to use the store now at that path",
                diskFull: false)
        }
    }

    /// Adds `name(text)` to this connection's SQL, computed by `transform`: for orders SQLite cannot express, such
    /// as the folded name key. NULL and non-text arguments give NULL. Deterministic, so SQLite may compute it once
    /// per row. The C function is `sqlite3_create_function_v2`.
    func addFunction(_ name: String, _ transform: @escaping (String) -> String) throws(StoreError) {
        let box = Unmanaged.passRetained(TextFunction(transform)).toOpaque()
        // On failure SQLite calls the destructor itself, releasing the box.
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, box,
            { context, _, arguments in
                let function = Unmanaged<TextFunction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                guard let argument = arguments?[0], sqlite3_value_type(argument) == SQLITE_TEXT,
                    let bytes = sqlite3_value_text(argument)
                else { return sqlite3_result_null(context) }
                let text = String(
                    decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(argument))),
                    as: UTF8.self)
                var result = function.transform(text)
                result.withUTF8 { utf8 in
                    sqlite3_result_text(
                        context, UnsafeRawPointer(utf8.baseAddress).map { $0.assumingMemoryBound(to: CChar.self) },
                        Int32(utf8.count), prospects_sqlite_transient())
                }
            }, nil, nil, { box in box.map { Unmanaged<TextFunction>.fromOpaque($0).release() } })
        guard code == SQLITE_OK else { throw Self.error(code: code, connection: handle, sql: nil) }
    }

    /// Adds `name(haystack, needle)` to this connection's SQL: 1 when the text `needle` occurs in the text
    /// `haystack`, else 0; NULL when either is NULL. What `instr(haystack, needle) > 0` answers, by glibc's `memchr`
    /// and `memcmp` rather than SQLite's scan, which walks the haystack a byte at a time counting characters: a search looks
    /// through every prospect's search key. The corresponding C function is `sqlite3_create_function_v2`.
    func addContainsFunction(_ name: String) throws(StoreError) {
        let code = sqlite3_create_function_v2(
            handle, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
            { context, _, arguments in
                guard let haystack = arguments?[0], let needle = arguments?[1],
                    sqlite3_value_type(haystack) != SQLITE_NULL, sqlite3_value_type(needle) != SQLITE_NULL
                else { return sqlite3_result_null(context) }
                // Text first, then its length in bytes, as SQLite asks (the pointer is valid until the next call).
                let haystackBytes = sqlite3_value_text(haystack)
                let haystackCount = Int(sqlite3_value_bytes(haystack))
                let needleBytes = sqlite3_value_text(needle)
                let needleCount = Int(sqlite3_value_bytes(needle))
                let found =
                    needleCount == 0
                    || haystackBytes.map { haystack in
                        needleBytes.map { SQLiteDatabase.contains(haystack, haystackCount, $0, needleCount) } ?? false
                    } ?? false
                sqlite3_result_int(context, found ? 1 : 0)
            }, nil, nil, nil)
        guard code == SQLITE_OK else { throw Self.error(code: code, connection: handle, sql: nil) }
    }

    /// Whether the `needleCount` bytes at `needle` (at least one) occur in the `count` bytes at `haystack`: glibc's
    /// vectorised `memchr` finds each place the first byte occurs, `memcmp` compares the rest there.
    private static func contains(
        _ haystack: UnsafePointer<UInt8>, _ count: Int, _ needle: UnsafePointer<UInt8>, _ needleCount: Int
    ) -> Bool {
        var start = UnsafeRawPointer(haystack)
        let end = start + count
        while end - start >= needleCount {
            guard let hit = memchr(start, Int32(needle.pointee), end - start - needleCount + 1) else { return false }
            if memcmp(hit, needle, needleCount) == 0 { return true }
            start = UnsafeRawPointer(hit) + 1
        }
        return false
    }

    /// Switches the file to WAL, which lets readers work beside one writer. The mode is stored in the file, so
    /// this usually finds it set. Switching needs a moment alone with the file, and SQLite answers SQLITE_BUSY
    /// at once, without the busy handler, when another connection is opening it too: retry until the timeout.
    /// Then sets how much WAL this connection's commits leave before a checkpoint.
    func enableWAL() throws(StoreError) {
        let deadline = Date().addingTimeInterval(Double(busyTimeoutMilliseconds) / 1000)
        while true {
            do throws(StoreError) {
                let mode = try query("PRAGMA journal_mode = WAL") { row throws(StoreError) in try row.text(0) }
                guard mode.first?.lowercased() == "wal" else {
                    throw .unavailable("cannot switch \(path) to WAL mode (got \(mode.first ?? "nothing"))")
                }
                break
            } catch {
                guard case .busy = error, Date() < deadline else { throw error }
                usleep(UInt32.random(in: 1_000...10_000))
            }
        }
        // A checkpoint copies every page the WAL holds back into the file. At SQLite's default of 1,000 pages (4 MiB
        // of 4 KiB pages), a 100,000-row import checkpointed each page of the store about three times (13,500 page
        // copies for a 4,200-page file); at 16 MiB, the size of the cache, half as many, and the import was about a
        // tenth faster. The limit is counted in pages, and stores made before 16 KiB pages keep 4 KiB ones. The last
        // connection to close still checkpoints and removes the WAL.
        let pageSize = try query("PRAGMA page_size") { row throws(StoreError) in try row.int(0) }.first ?? 4096
        try execute("PRAGMA wal_autocheckpoint = \(Self.walCheckpointBytes / max(pageSize, 512))")
        usesWAL = true
        try checkInPlace()  // the files as they are now, for the checks around each commit to compare with
    }

    /// How much WAL a commit leaves before SQLite copies it back into the file.
    static let walCheckpointBytes = 16 << 20

    /// The one place that turns an SQLite result code into a `StoreError`. Messages come from SQLite and name
    /// tables or constraints, never bound values.
    static func error(code: Int32, connection: OpaquePointer?, sql: String?) -> StoreError {
        let message = connection.map { String(cString: sqlite3_errmsg($0)) }
        // A person waiting on a lock, or refused a write, wants to know which file.
        if let file = connection.flatMap({ sqlite3_db_filename($0, "main") }).map({ String(cString: $0) }),
            !file.isEmpty
        {
            switch code & 0xFF {
            case SQLITE_BUSY, SQLITE_LOCKED:
                return .busy("\(file) stayed locked by another process (\(message ?? "locked"))")
            case SQLITE_READONLY:
                return .permissionDenied(
                    "\(file) cannot be written by this user (\(message ?? "read-only")): the file and its folder must "
                        + "be writable, for SQLite keeps its -wal and -shm files beside it")
            case SQLITE_FULL:
                return .storageFailed(
                    "\(file): the disk is full (\(message ?? "full")); free some space and try again", diskFull: true)
            case SQLITE_IOERR:
                return .storageFailed(
                    "\(file): the disk failed to read or write (\(message ?? "I/O error")\(Self.ioDetail(code, connection)))",
                    diskFull: false)
            default:
                break
            }
        }
        return error(code: code, message: message, sql: sql)
    }

    /// What an SQLITE_IOERR was, from its extended code and the failed system call's errno: `; fsync failed:
    /// Input/output error`. Empty when SQLite says no more. The C functions are `sqlite3_system_errno` and `strerror`.
    static func ioDetail(_ code: Int32, _ connection: OpaquePointer?) -> String {
        let operations = [
            "read", "short read", "write", "fsync", "folder fsync", "truncate", "fstat", "unlock", "read lock",
            "delete", "blocked", "out of memory", "access", "reserved-lock check", "lock", "close", "folder close",
            "shared-memory open", "shared-memory size", "shared-memory lock", "shared-memory map", "seek",
            "delete (no such file)", "memory map", "temporary path", "path conversion",
        ]
        let extended = Int(code >> 8)
        let operation = (1...operations.count).contains(extended) ? operations[extended - 1] : nil
        let number = connection.map { sqlite3_system_errno($0) } ?? 0
        let reason = number == 0 ? nil : "\(String(cString: strerror(number))) (errno \(number))"
        switch (operation, reason) {
        case (let operation?, let reason?): return "; \(operation) failed: \(reason)"
        case (let operation?, nil): return "; \(operation) failed"
        case (nil, let reason?): return "; \(reason)"
        case (nil, nil): return ""
        }
    }

    static func error(code: Int32, message: String?, sql: String?) -> StoreError {
        let text = message ?? String(cString: sqlite3_errstr(code))
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(text)
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH: return .permissionDenied(text)
        case SQLITE_CANTOPEN: return .unavailable(text)
        case SQLITE_FULL: return .storageFailed(text, diskFull: true)
        case SQLITE_IOERR: return .storageFailed(text, diskFull: false)
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt(text)
        default: return .database(code: code, message: text, sql: sql)
        }
    }

    /// Writes a copy of the database as it is now (`VACUUM INTO`) to a new file beside it, named `suffix` after it
    /// (`leads.sqlite.schema-2.bak`; `.1`, `.2`… added when that name is taken), mode 0600, and returns its path.
    func backUp(suffix: String) throws(StoreError) -> String {
        for attempt in 0..<100 {
            let backup = path + suffix + (attempt == 0 ? "" : ".\(attempt)")
            // Made empty and private first: VACUUM INTO writes into an empty file, and would make one 0644.
            let descriptor = open(backup, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                let number = errno
                if number == EEXIST { continue }
                throw .unavailable("cannot make a copy of \(path) at \(backup): \(String(cString: strerror(number)))")
            }
            close(descriptor)
            do throws(StoreError) {
                try execute("VACUUM INTO $1", [.text(backup)])
            } catch {
                unlink(backup)
                throw error
            }
            return backup
        }
        throw .unavailable("cannot make a copy of \(path): \(path + suffix) and 99 more names are taken")
    }

    /// For commands that read or change a store but never create one: refuses a missing path, a folder, and an
    /// empty file (which SQLite would take for a new database, and the first read would write a schema into).
    private static func requireExistingStore(_ path: String) throws(StoreError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .unavailable(
                "there is no store at \(path) (ingest, import and watch create one; check the path or --store)")
        }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw .unavailable("\(path) is a folder; --store names the store's file (prospects.sqlite, say)")
        }
        // A store just made in WAL mode may have its pages in the -wal file only.
        var wal = stat()
        if info.st_size == 0 && (stat(path + "-wal", &wal) != 0 || wal.st_size == 0) {
            throw .unavailable(
                "\(path) is an empty file, not a prospect store yet (ingest, import and watch create one)")
        }
    }

    /// Creates the file with mode 0600 before SQLite opens it: SQLite gives the -wal and -shm files the mode of
    /// the database file, and prospects' names and addresses are nobody else's business. A file already there is
    /// left unopened: closing a descriptor of it would drop every POSIX lock this process's SQLite connections hold
    /// on it, and another process closing its connection would then take itself for the last and remove the WAL.
    private static func createPrivateFile(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { return }
            throw .unavailable("cannot open \(path): \(String(cString: strerror(EISDIR)))")
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let number = errno
            let folder = (path as NSString).deletingLastPathComponent
            switch number {
            case ENOENT:
                throw .unavailable("cannot create \(path): the folder \(folder.isEmpty ? "." : folder) does not exist")
            case EACCES, EPERM, EROFS:
                throw .permissionDenied("cannot open or create \(path): \(String(cString: strerror(number)))")
            default:
                throw .unavailable("cannot open \(path): \(String(cString: strerror(number)))")
            }
        }
        close(descriptor)
    }
}

@available(*, unavailable)
extension SQLiteDatabase: Sendable {}

/// A Swift function SQLite calls back: the user data of `SQLiteDatabase.addFunction`.
private final class TextFunction {
    let transform: (String) -> String

    init(_ transform: @escaping (String) -> String) {
        self.transform = transform
    }
}
