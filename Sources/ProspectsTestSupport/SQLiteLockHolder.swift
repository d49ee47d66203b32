import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Another process holding an SQLite store's write lock (`BEGIN EXCLUSIVE`) for a while, for tests of what waits on
/// a busy store. It is one Python process with no child (the `sqlite3` shell's `.shell sleep` would leave its
/// sleep running), so killing it ends the lock at once.
public final class SQLiteLockHolder {
    private let process = Process()

    /// Returns once the lock is held, which it stays for `seconds` unless released; throws when Python cannot take
    /// it within 10 s.
    public init(store: String, seconds: Int) throws {
        let marker = store + ".lock-held"
        process.executableURL = URL(fileURLWithPath: PythonScript.interpreter)
        process.arguments = [
            "-c",
            """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN EXCLUSIVE")
            open(sys.argv[2], "w").close()
            time.sleep(float(sys.argv[3]))
            db.execute("COMMIT")
            """,
            store, marker, String(seconds),
        ]
        try process.run()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: marker) { usleep(100_000) }
        guard FileManager.default.fileExists(atPath: marker) else {
            release()
            throw PythonScript.Failure(description: "\(PythonScript.interpreter) did not lock \(store) within 10 s")
        }
    }

    deinit { release() }

    /// Ends the lock now; safe to call more than once.
    public func release() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
