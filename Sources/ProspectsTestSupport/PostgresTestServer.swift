import CLinux
import CPostgres
import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL server for tests: the one named by `PROSPECTS_TEST_POSTGRES_URL`, or else a throwaway cluster
/// started once per test process (initdb into a temporary folder, a private port) and stopped at exit.
///
/// Give every test its own database with `makeDatabase()`. A server that cannot start is an error, never a
/// reason to skip: a skipped test is not a pass.
public final class PostgresTestServer: Sendable {
    /// The administrative connection URL (the `postgres` database). Tests should use `makeDatabase()`.
    public let url: String
    /// The cluster this process started, when it started one.
    private let cluster: Cluster?

    /// The server for this test process, started on first use. Throws with a readable reason (and the server's
    /// log) when no server can be started.
    public static func shared() throws -> PostgresTestServer {
        try sharedResult.get()
    }

    private static let sharedResult: Result<PostgresTestServer, PostgresTestServerError> = {
        if let url = ProcessInfo.processInfo.environment["PROSPECTS_TEST_POSTGRES_URL"], !url.isEmpty {
            return .success(PostgresTestServer(url: url, cluster: nil))
        }
        do throws(PostgresTestServerError) {
            let cluster = try Cluster.start()
            atexit { try? PostgresTestServer.sharedResult.get().cluster?.stop() }
            return .success(PostgresTestServer(url: cluster.url, cluster: cluster))
        } catch {
            return .failure(error)
        }
    }()

    private init(url: String, cluster: Cluster?) {
        self.url = url
        self.cluster = cluster
    }

    /// Creates a new empty database `test_<random>` and returns its URL; with `encoding` (`LATIN1`), one in that
    /// encoding and the C locale, which any encoding accepts.
    public func makeDatabase(encoding: String? = nil) throws -> String {
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let options = encoding.map { " ENCODING '\($0)' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'" } ?? ""
        try Self.execute("CREATE DATABASE \(name)\(options)", url: url)
        guard var components = URLComponents(string: url) else {
            throw PostgresTestServerError("cannot parse \(url)")
        }
        components.path = "/" + name
        guard let databaseURL = components.string else { throw PostgresTestServerError("cannot build a URL") }
        return databaseURL
    }

    /// Runs one statement on `url`, for setting up tests.
    public static func execute(_ sql: String, url: String) throws {
        guard let connection = PQconnectdb(url) else { throw PostgresTestServerError("out of memory") }
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw PostgresTestServerError("cannot connect: \(String(cString: PQerrorMessage(connection)))")
        }
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw PostgresTestServerError("\(sql) failed: \(String(cString: PQerrorMessage(connection)))")
        }
    }
}

/// Why the test server is not available.
public struct PostgresTestServerError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = "PostgreSQL test server: " + description
    }
}

/// A cluster in a temporary folder, its `postgres` running in the foreground under a tiny `sh` watchdog.
///
/// The watchdog reads the pipe this process holds open: when this process exits, even by a crash, the pipe
/// closes, and the watchdog stops the server with SIGINT (fast shutdown). `pg_ctl start` is not used: waiting
/// for it through Foundation's `Process` hangs on the descriptor the server inherits.
private final class Cluster: Sendable {
    let url: String
    let folder: String
    let watchdog: pid_t
    let watchdogInput: Int32

    private init(url: String, folder: String, watchdog: pid_t, watchdogInput: Int32) {
        self.url = url
        self.folder = folder
        self.watchdog = watchdog
        self.watchdogInput = watchdogInput
    }

    static func start() throws(PostgresTestServerError) -> Cluster {
        let bin = try binFolder()
        var template = Array("/tmp/prospects-pg-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw PostgresTestServerError("cannot create a temp folder") }
        let folder = String(cString: created)
        do throws(PostgresTestServerError) {
            // initdb and postgres refuse to run as root: run them as the postgres user, which must own the folder.
            var prefix: [String] = []
            if geteuid() == 0 {
                guard let user = getpwnam("postgres") else {
                    throw PostgresTestServerError("running as root, but there is no postgres user to run the server")
                }
                guard chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                    throw PostgresTestServerError("cannot give \(folder) to the postgres user")
                }
                prefix = ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"]
            }
            let data = folder + "/data"
            let initdbLog = folder + "/initdb.log"
            let initdb = try spawn(
                prefix + [
                    bin + "/initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8",
                    "--no-sync", "--no-instructions",
                ], log: initdbLog, input: nil)
            let status = wait(for: initdb)
            guard status == 0 else {
                throw PostgresTestServerError("initdb failed (status \(status)):\n\(tail(of: initdbLog))")
            }

            let port = try freePort()
            var pipeEnds: [Int32] = [0, 0]
            // Close-on-exec on both ends here, so that no other child of this process holds the pipe open;
            // posix_spawn's dup2 gives the watchdog its end as stdin without the flag.
            guard pipe(&pipeEnds) == 0 else { throw PostgresTestServerError("cannot create a pipe") }
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            let serverLog = folder + "/postgres.log"
            let script = #""$@" </dev/null & pid=$!; read -r _; kill -INT "$pid"; wait "$pid""#
            let watchdog: pid_t
            do throws(PostgresTestServerError) {
                watchdog = try spawn(
                    prefix + [
                        "/bin/sh", "-c", script, "sh", bin + "/postgres", "-D", data, "-p", String(port), "-k", folder,
                        "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                        "-c", "full_page_writes=off", "-c", "max_connections=200",
                    ], log: serverLog, input: pipeEnds[0])
            } catch {
                close(pipeEnds[0])
                close(pipeEnds[1])
                throw error
            }
            close(pipeEnds[0])
            let cluster = Cluster(
                url: "postgresql://postgres@127.0.0.1:\(port)/postgres", folder: folder, watchdog: watchdog,
                watchdogInput: pipeEnds[1])
            do throws(PostgresTestServerError) {
                try cluster.waitUntilReady(port: port, log: serverLog)
            } catch {
                cluster.stop()
                throw error
            }
            return cluster
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Stops the server (closing the watchdog's pipe makes it send SIGINT), waits for it, removes the folder.
    func stop() {
        close(watchdogInput)
        let deadline = Date().addingTimeInterval(10)
        var status: Int32 = 0
        while waitpid(watchdog, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(watchdog, SIGKILL)
                break
            }
            usleep(20_000)
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func waitUntilReady(port: Int, log: String) throws(PostgresTestServerError) {
        let conninfo = "host=127.0.0.1 port=\(port) dbname=postgres user=postgres connect_timeout=2"
        let deadline = Date().addingTimeInterval(20)
        while PQping(conninfo) != PQPING_OK {
            var status: Int32 = 0
            if waitpid(watchdog, &status, WNOHANG) == watchdog {
                throw PostgresTestServerError("postgres exited at start-up:\n\(Cluster.tail(of: log))")
            }
            if Date() > deadline {
                throw PostgresTestServerError(
                    "postgres did not accept connections within 20 s:\n\(Cluster.tail(of: log))")
            }
            usleep(20_000)
        }
    }

    /// The server binaries: `PROSPECTS_POSTGRES_BIN`, else the newest `/usr/lib/postgresql/<version>/bin`.
    private static func binFolder() throws(PostgresTestServerError) -> String {
        if let bin = ProcessInfo.processInfo.environment["PROSPECTS_POSTGRES_BIN"], !bin.isEmpty { return bin }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let newest = versions.compactMap(Int.init).sorted().last { version in
            FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/postgres")
        }
        guard let newest else {
            throw PostgresTestServerError(
                "no server binaries in /usr/lib/postgresql/*/bin (install postgresql, set PROSPECTS_POSTGRES_BIN, "
                    + "or set PROSPECTS_TEST_POSTGRES_URL)")
        }
        return "/usr/lib/postgresql/\(newest)/bin"
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now (the kernel picks one for a bound socket).
    private static func freePort() throws(PostgresTestServerError) -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw PostgresTestServerError("cannot create a socket") }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketDescriptor, generic, length) == 0 && getsockname(socketDescriptor, generic, &length) == 0
            }
        }
        guard bound else { throw PostgresTestServerError("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts `arguments` with stdout and stderr appended to `log`, and stdin from `input` (or /dev/null).
    /// posix_spawn rather than `Process`, so that this code alone reaps the child.
    private static func spawn(_ arguments: [String], log: String, input: Int32?) throws(PostgresTestServerError)
        -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else: tests start other children on other threads, and Foundation's pipes are not close-on-exec
        // until its `Process` has spawned. A server that inherited such a pipe's write end kept it open for the
        // whole run, and the test reading that pipe to its end waited for ever.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        // A child inherits the spawning thread's signal mask, and test threads block signals: the watchdog's
        // `wait` would never see SIGCHLD. Start children with nothing blocked and default handlers.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        for signal in [SIGINT, SIGTERM, SIGCHLD, SIGPIPE, SIGHUP] { sigaddset(&signals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard code == 0 else {
            throw PostgresTestServerError("cannot start \(arguments[0]): \(String(cString: strerror(code)))")
        }
        return pid
    }

    /// Waits for `pid` to end; its exit status, or -1.
    private static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        guard retryingOnInterrupt({ waitpid(pid, &status, 0) }) >= 0 else { return -1 }
        // WIFEXITED / WEXITSTATUS are macros; an exit leaves the low 7 bits 0 and the code in the next 8.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
    }

    private static func tail(of log: String) -> String {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? "(no log)"
        return text.split(separator: "\n").suffix(20).joined(separator: "\n")
    }
}
