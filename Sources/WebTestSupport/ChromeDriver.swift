import CLinux
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's chromedriver, started on a free port in a process group of its own, so that stopping it also ends
/// every Chromium it started, even after a failed session.
///
/// A class because it owns the process, stopped by `stop()` or when released.
public final class ChromeDriver {
    public let port: UInt16
    private var pid: pid_t

    /// Starts `executable` and waits until it answers `/status` as ready.
    public init(executable: String = "/usr/bin/chromedriver") throws(WebDriverError) {
        port = Self.freePort()
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of the test process: a file another test has open for writing, inherited by chromedriver (and
        // its Chromium), would stay open after that test closed it, and inotify would never say it was closed.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        let arguments = [executable, "--port=\(port)", "--allowed-ips=127.0.0.1"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, &argv, environ)
        guard spawned == 0 else { throw .spawnFailed(path: executable, errno: spawned) }
        pid = child
        for _ in 0..<300 {
            if let status = try? request("GET", "/status"),
                let value = status["value"] as? [String: Any], value["ready"] as? Bool == true
            {
                return
            }
            usleep(100_000)
        }
        stop()
        throw .notReady(port: port)
    }

    deinit { stop() }

    /// Opens a headless Chromium session (`--headless=new --no-sandbox`, for root in CI) whose viewport is exactly
    /// `width` × `height` CSS pixels; `mobile` emulates a phone (the page's viewport meta tag is honoured).
    public func newSession(
        width: Int = 1280, height: Int = 800, mobile: Bool = false, extraArguments: [String] = []
    ) throws(WebDriverError) -> WebDriverSession {
        let arguments =
            ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"]
            + extraArguments
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": ["binary": "/usr/bin/chromium", "args": arguments],
                ]
            ]
        ]
        let reply = try request("POST", "/session", capabilities)
        guard let value = reply["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            throw .malformedReply(path: "/session", body: "\(reply)")
        }
        let session = WebDriverSession(driver: self, id: id)
        do {
            try session.setViewport(width: width, height: height, mobile: mobile)
            try session.setImplicitWait(milliseconds: 10_000)
        } catch {
            session.close()
            throw error
        }
        return session
    }

    /// Sends one command and returns chromedriver's JSON reply; a W3C error becomes `WebDriverError.command`.
    @discardableResult
    func request(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws(WebDriverError) -> [String:
        Any]
    {
        let bytes = body.flatMap { try? JSONSerialization.data(withJSONObject: $0) }.map(Array.init) ?? []
        let response: RawHTTPResponse
        do {
            let client = try RawHTTPClient(port: port, timeoutSeconds: 120)
            defer { client.close() }
            response = try client.request(
                method, path, headers: [("Content-Type", "application/json; charset=utf-8")], body: bytes)
        } catch {
            throw .transport(error)
        }
        guard let json = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else {
            throw .malformedReply(path: path, body: response.text)
        }
        if response.status >= 400 {
            let value = json["value"] as? [String: Any]
            throw .command(
                method: method, path: path, status: response.status, error: value?["error"] as? String ?? "",
                message: value?["message"] as? String ?? response.text)
        }
        return json
    }

    /// Ends chromedriver and everything in its process group, and reaps it. Safe to call more than once.
    public func stop() {
        guard pid > 0 else { return }
        kill(-pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                break
            }
            usleep(100_000)
        }
        if pid > 0 {
            kill(-pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        pid = 0
    }

    /// A port that was free a moment ago, found by binding port 0.
    static func freePort() -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length)
                return getsockname(fd, $0, &length)
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }
}
