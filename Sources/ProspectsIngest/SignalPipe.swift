import CLinux
import Glibc
import SystemCalls

/// The write end the signal handler uses; a global because a C signal handler cannot capture anything.
private nonisolated(unsafe) var signalPipeWriteEnd: Int32 = -1

/// SIGINT and SIGTERM turned into a readable descriptor (the self-pipe trick), so the watch loop's `poll` wakes
/// for a stop request exactly as it wakes for a file, and nothing runs inside the signal handler but `write`.
///
/// A class because it owns the pipe; one per process.
final class SignalPipe {
    let descriptor: Int32
    private let writeEnd: Int32

    /// Installs the handlers. With `once`, each handler then gives way to the default action, so that a second
    /// Ctrl-C ends the process even when what waits is a read the loop cannot interrupt. The corresponding C
    /// functions are `pipe2` and `sigaction`.
    init(signals: [Int32] = [SIGINT, SIGTERM], once: Bool = false) throws(SystemCallError) {
        var ends: [Int32] = [-1, -1]
        guard prospects_pipe2(&ends, O_NONBLOCK | O_CLOEXEC) == 0 else { throw SystemCallError("pipe2") }
        descriptor = ends[0]
        writeEnd = ends[1]
        signalPipeWriteEnd = writeEnd
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                let saved = errno
                var byte: UInt8 = 1
                _ = write(signalPipeWriteEnd, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART | (once ? Int32(bitPattern: UInt32(SA_RESETHAND)) : 0)
            guard sigaction(number, &action, nil) == 0 else { throw SystemCallError("sigaction") }
        }
        // A blocked mask is inherited across exec (test runners and some supervisors start children with one):
        // unblock these signals on this thread, the one that runs the loop, or a stop request would never arrive.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// How many signals arrived since the last call.
    func drain() -> Int {
        var total = 0
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(descriptor, &bytes, bytes.count)
            if count <= 0 { return total }
            total += count
        }
    }
}
