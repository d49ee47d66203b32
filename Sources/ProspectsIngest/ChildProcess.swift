import CLinux
import Glibc
import SystemCalls

/// A child process with a pipe to its stdin and one from its stdout; its stderr is ours, so what it says reaches
/// the same log.
///
/// Written on `posix_spawn` rather than Foundation's `Process` so that the descriptors are exactly these two
/// (every other descriptor of the watcher is close-on-exec) and the child gets its own process group. A class
/// because it owns the pipes and must reap the child.
final class ChildProcess {
    let pid: pid_t
    /// Write end of the child's stdin.
    private(set) var input: Int32
    /// Read end of the child's stdout (non-blocking).
    let output: Int32
    private var reaped = false

    /// Starts `executable` with `arguments` (argv[0] included) and this process's environment.
    /// The corresponding C function is `posix_spawn`.
    init(executable: String, arguments: [String]) throws(SystemCallError) {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard prospects_pipe2(&toChild, O_CLOEXEC) == 0 else { throw SystemCallError("pipe2") }
        guard prospects_pipe2(&fromChild, O_CLOEXEC) == 0 else {
            let error = SystemCallError("pipe2")
            close(toChild[0])
            close(toChild[1])
            throw error
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 onto 0 and 1 clears close-on-exec for those two only.
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        // And nothing else, even a descriptor a library opened without close-on-exec: a worker holding a file open
        // for writing would keep inotify from ever saying it was closed.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: a terminal's Ctrl-C is for the watcher, which then stops its workers itself.
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // No blocked signals either, whatever mask the watcher itself inherited.
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw SystemCallError("posix_spawn", path: executable, code: status)
        }
        pid = child
        input = toChild[1]
        output = fromChild[0]
        _ = fcntl(output, F_SETFL, O_NONBLOCK)
    }

    deinit {
        closeInput()
        close(output)
        if !reaped {
            kill(pid, SIGKILL)
            _ = wait()
        }
    }

    /// Ends the child's stdin: a worker reading it finishes and exits.
    func closeInput() {
        if input >= 0 {
            close(input)
            input = -1
        }
    }

    func signal(_ number: Int32) {
        if !reaped { kill(pid, number) }
    }

    /// Waits for the child to exit and describes how it ended. The corresponding C function is `waitpid`.
    @discardableResult
    func wait() -> String {
        guard !reaped else { return "already reaped" }
        var status: Int32 = 0
        guard retryingOnInterrupt({ waitpid(pid, &status, 0) }) >= 0 else {
            reaped = true
            return "already reaped"
        }
        reaped = true
        return ChildProcess.describe(status)
    }

    /// The exit description if the child has ended, without waiting; nil while it runs.
    func exited() -> String? {
        guard !reaped else { return "already reaped" }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        reaped = true
        return ChildProcess.describe(status)
    }

    /// "killed by signal 6 (Aborted)" or "exited with status 3".
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        return "killed by signal \(signal) (\(String(cString: strsignal(signal))))"
    }
}
