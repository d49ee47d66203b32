import Glibc
import Synchronization
import SystemCalls

/// The temporary file to remove if a signal ends the process first (the latest export's, when several run at once);
/// a global because a C signal handler cannot capture anything, and atomic because it may read it at any moment.
/// The address of the name's C string (`UInt(bitPattern:)`), 0 for none: a pointer itself is not `Sendable`.
private let pendingTemporary = Atomic<UInt>(0)

/// Writes a file a person asked for (`export -o`, `encode -o`), as shell redirection would where that is what the
/// name must mean, and more carefully where it can be.
///
/// A regular file (or none yet) is written private (mode 0600: it holds names and addresses) and never
/// half-written (a temporary file in the same folder, synced, then renamed over the target). A symbolic link is
/// followed to the file it names. A descriptor the process was given (`/dev/stdout`, `/dev/fd/N`), a device or a
/// FIFO is written through, never replaced: renaming over `/dev/null` as root would break the machine. An SQLite
/// database is never replaced.
public enum OutputFile {
    /// An output being written: bytes go in as they come (an export of any size holds one chunk), and `finish`
    /// makes them the file. Released unfinished (an error on the way), it closes what it opened and removes its
    /// temporary file, so the target is left as it was.
    public final class Writer {
        private let descriptor: Int32
        /// The path as the person gave it, for messages.
        private let path: String
        /// The temporary file renamed over `target` by `finish`, when the target is (or will be) a regular file.
        private let temporary: String?
        private let target: String
        /// False for a descriptor the process was given (`/dev/stdout`), which stays open.
        private let ownsDescriptor: Bool
        private var finished = false
        /// This writer's copy of `temporary` for the signal handler, freed once it is no longer wanted.
        private var interruptCopy: UnsafeMutablePointer<CChar>?

        fileprivate init(
            descriptor: Int32, path: String, temporary: String? = nil, target: String, owns: Bool,
            interruptCopy: UnsafeMutablePointer<CChar>? = nil
        ) {
            self.descriptor = descriptor
            self.path = path
            self.temporary = temporary
            self.target = target
            self.ownsDescriptor = owns
            self.interruptCopy = interruptCopy
        }

        deinit {
            OutputFile.forgetOnInterrupt(interruptCopy)
            guard !finished else { return }
            if ownsDescriptor { close(descriptor) }
            if let temporary { unlink(temporary) }
        }

        public func write(_ bytes: [UInt8]) throws(OutputFileError) {
            guard OutputFile.writeAll(bytes, to: descriptor) else {
                throw OutputFile.failure(OutputFileError.cannotWrite, "cannot write \(path)")
            }
        }

        public func finish() throws(OutputFileError) {
            guard ownsDescriptor else {
                finished = true
                return
            }
            OutputFile.forgetOnInterrupt(interruptCopy)
            interruptCopy = nil
            // The descriptor is closed whether or not fsync succeeds; deinit then has only the temporary file left.
            let synced = temporary == nil || fsync(descriptor) == 0
            let closed = close(descriptor) == 0
            finished = true
            guard synced, closed else {
                let error = OutputFile.failure(OutputFileError.cannotWrite, "cannot write \(path)")
                if let temporary { unlink(temporary) }
                throw error
            }
            guard let temporary else { return }
            // The bytes are safe; what fails now is the name: the file cannot be created.
            guard rename(temporary, target) == 0 else {
                let error = OutputFile.failure(OutputFileError.cannotCreate, "cannot create \(path)")
                unlink(temporary)
                throw error
            }
        }
    }

    /// Writes `bytes` as the whole output at `path`.
    public static func write(_ bytes: [UInt8], to path: String) throws(OutputFileError) {
        let writer = try open(path)
        try writer.write(bytes)
        try writer.finish()
    }

    /// Starts the output at `path`, following the rules above.
    public static func open(_ path: String) throws(OutputFileError) -> Writer {
        if let fd = inheritedDescriptor(path) {
            // Given by the shell, it has no close-on-exec flag; every descriptor this process opens has one, the
            // store's among them (`-o /dev/fd/3` would write over the database).
            let flags = fcntl(fd, F_GETFD)
            guard flags != -1, flags & FD_CLOEXEC == 0 else {
                throw .cannotCreate("cannot write \(path): descriptor \(fd) was not given to this command")
            }
            guard !startsLikeSQLite(descriptor: fd) else { throw databaseRefusal(path) }
            return Writer(descriptor: fd, path: path, target: path, owns: false)
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            guard errno == ENOENT else { throw failure(OutputFileError.cannotCreate, "cannot create \(path)") }
            return try openAtomically(path)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return try openAtomically(path)
        case S_IFLNK:
            guard let resolved = realpath(path, nil) else {
                throw failure(OutputFileError.cannotCreate, "cannot write \(path), a symbolic link to nothing")
            }
            defer { free(resolved) }
            // One level only: realpath resolved every link, so the result is no link.
            return try open(String(cString: resolved))
        case S_IFCHR, S_IFIFO, S_IFSOCK:
            // Opened as it is: a FIFO waits for its reader, as `>` does.
            let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { throw failure(OutputFileError.cannotCreate, "cannot write \(path)") }
            return Writer(descriptor: fd, path: path, target: path, owns: true)
        case S_IFDIR:
            throw .cannotCreate("cannot create \(path): it is a folder")
        default:
            throw .cannotCreate("cannot create \(path): it is not a file")
        }
    }

    /// `/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/3`: a descriptor this process was given, written as it is. Opening
    /// the name would start a new file description (writing at offset 0 over what `>>` appended to), or find a
    /// symbolic link to `pipe:[…]`; following it to a regular file would rename a new file over the shell's.
    private static func inheritedDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                let number = path.dropFirst(prefix.count)
                guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber),
                    let fd = Int32(number)
                else { return nil }
                return fd
            }
            return nil
        }
    }

    private static func openAtomically(_ path: String) throws(OutputFileError) -> Writer {
        try refuseDatabase(path)
        // Beside the target, so that the rename stays on one file system; a short name of its own, so that a target
        // name near the 255-byte limit still has room for it.
        let folder = path.contains("/") ? String(path[...path.lastIndex(of: "/")!]) : ""
        // A random part too: one left by a killed run under the same process id (containers repeat them) must not
        // stand in the way.
        let temporary = "\(folder).prospects-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 36)).tmp"
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(OutputFileError.cannotCreate, "cannot create \(path)") }
        let interruptCopy = removeOnInterrupt(temporary)
        return Writer(
            descriptor: fd, path: path, temporary: temporary, target: path, owns: true, interruptCopy: interruptCopy)
    }

    /// Ctrl-C during a long export would otherwise leave the temporary file, names and addresses in it, behind: the
    /// handler removes it, then lets the signal end the process as it would have. Returns the copy of the name the
    /// handler reads, which the writer hands back to `forgetOnInterrupt`.
    private static func removeOnInterrupt(_ temporary: String) -> UnsafeMutablePointer<CChar>? {
        let copy = strdup(temporary)
        // Another writer's copy, if any, stays that writer's to free.
        _ = pendingTemporary.exchange(UInt(bitPattern: copy), ordering: .sequentiallyConsistent)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let address = pendingTemporary.load(ordering: .sequentiallyConsistent)
                if let path = UnsafePointer<CChar>(bitPattern: address) { unlink(path) }
                signal(number, SIG_DFL)
                raise(number)
            }
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
        // A mask blocking them is inherited across exec (test runners, some supervisors): then no handler runs.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return copy
    }

    /// The handler no longer removes this writer's temporary file (finished, or removed already); `copy` is freed.
    fileprivate static func forgetOnInterrupt(_ copy: UnsafeMutablePointer<CChar>?) {
        guard let copy else { return }
        _ = pendingTemporary.compareExchange(
            expected: UInt(bitPattern: copy), desired: 0, ordering: .sequentiallyConsistent)
        free(copy)
    }

    fileprivate static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        (try? SystemCalls.writeAll(fd, bytes)) != nil
    }

    /// `export -o "$PROSPECTS_STORE"`, or a typo, would otherwise replace the whole store with a CSV file. Any other
    /// existing file is replaced, as `-o` does everywhere.
    private static func refuseDatabase(_ path: String) throws(OutputFileError) {
        let sideFile = ["-wal", "-shm", "-journal"].first { path.hasSuffix($0) }
        let database = sideFile.map { String(path.dropLast($0.count)) } ?? path
        // Non-blocking, so that a FIFO at the path cannot hang the check.
        let fd = Glibc.open(database, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return }
        defer { close(fd) }
        guard !startsLikeSQLite(descriptor: fd) else { throw databaseRefusal(path) }
    }

    /// Whether the file open as `descriptor` begins with SQLite's header (read in place: the offset is not moved).
    private static func startsLikeSQLite(descriptor: Int32) -> Bool {
        var header = [UInt8](repeating: 0, count: 16)
        return pread(descriptor, &header, header.count, 0) == header.count
            && header == Array("SQLite format 3\u{0}".utf8)
    }

    private static func databaseRefusal(_ path: String) -> OutputFileError {
        .cannotCreate("\(path) belongs to an SQLite database (a prospect store?); not replacing it")
    }

    /// The error for a system call that just failed, with the system's reason (read from `errno` at once).
    fileprivate static func failure(_ kind: (String) -> OutputFileError, _ what: String) -> OutputFileError {
        kind("\(what): \(String(cString: strerror(errno)))")
    }
}
