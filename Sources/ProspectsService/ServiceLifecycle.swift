import Glibc
import ProspectsIngest
import SystemCalls

/// The life of a long-running front-end (`serve`) as a service: SIGINT and SIGTERM held for `waitForStop` alone,
/// systemd told READY, STATUS and STOPPING (`Type=notify`), and one line at a time on stderr for the journal.
public final class ServiceLifecycle {
    private var stopSignals = sigset_t()
    private var previousMask = sigset_t()
    private let systemd: SystemdNotifier

    /// Blocks the stop signals in the calling thread: make it before any thread starts, so that they inherit the
    /// mask and only `waitForStop` receives a stop. `environment` holds systemd's `NOTIFY_SOCKET` when under it.
    public init(environment: [String: String]) {
        systemd = SystemdNotifier(environment: environment)
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, &previousMask)
    }

    deinit {
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// Tells systemd the service is up, with a status line `systemctl status` shows.
    public func ready(status: String) {
        systemd.status(status)
        systemd.ready()
    }

    /// Waits for SIGINT or SIGTERM, then tells systemd the service is stopping; returns the signal received.
    @discardableResult
    public func waitForStop() -> Int32 {
        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        systemd.stopping()
        return received
    }

    /// Writes `line` and a line feed to stderr in one call, so that lines of two threads never mix; a failed write
    /// is dropped (a log must not stop the service).
    public static func log(_ line: String) {
        try? writeAll(STDERR_FILENO, Array("\(line)\n".utf8), path: "stderr")
    }
}
