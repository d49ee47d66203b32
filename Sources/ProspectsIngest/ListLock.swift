import Glibc
import SystemCalls

/// An exclusive `flock` on a list while it is imported, so that two imports of one file at once cannot both find
/// it missing from the ledger and count every row twice: the second waits for the first to end, then finds the
/// list in the ledger. The kernel drops the lock when its process ends, however it ends. A class because it owns
/// the lock's descriptor.
///
/// It locks the path, not the bytes: two copies of one list under other names, imported at the same moment, are
/// not kept apart.
public final class ListLock {
    private let fd: Int32

    /// Locks the file at `path`, calling `waiting` once first if another process holds it. Nil when the file
    /// cannot be locked at all (a file system without `flock`): the import then goes on as it did without one.
    public init?(path: String, waiting: () -> Void) {
        // Read-only is enough for flock, and never changes the list's times.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                close(fd)
                return nil
            }
            waiting()
            // Blocking: Ctrl-C ends the process as it would any command that has written nothing yet.
            guard retryingOnInterrupt({ flock(fd, LOCK_EX) }) == 0 else {
                close(fd)
                return nil
            }
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
