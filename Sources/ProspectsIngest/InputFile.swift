import Glibc
import ProspectsCore
import SystemCalls

/// Reads an input file's bytes without ever blocking on, or being fooled by, what sits at the path.
///
/// Opens with `O_NONBLOCK` (a FIFO named `x.png` must not hang the run) and, unless told to follow links,
/// `O_NOFOLLOW`; then checks with `fstat` that the opened descriptor is a regular file, so the check and the
/// read concern the same object.
public enum InputFile {
    /// Files larger than this are refused before reading: no contact picture needs 256 MiB.
    public static let maxBytes = 256 << 20

    /// The bytes of the regular file at `path`. A symlink is followed only when `followSymlinks` is true.
    public static func read(_ path: String, followSymlinks: Bool) throws(ScanError) -> [UInt8] {
        var bytes: [UInt8] = []
        try read(path, followSymlinks: followSymlinks, into: &bytes)
        return bytes
    }

    /// The path that means standard input (`prospects decode - < card.png`), as for `import -`.
    public static let standardInput = "-"

    /// How outputs name standard input, as `import -` does.
    public static func shownName(_ path: String) -> String { path == standardInput ? "stdin" : path }

    /// Reads the file at `path` into `bytes`, reusing its storage: a loop over many files allocates once.
    /// On error `bytes` is left empty (its capacity kept). `-` reads standard input to its end: a file or a pipe,
    /// never a terminal.
    public static func read(_ path: String, followSymlinks: Bool, into bytes: inout [UInt8]) throws(ScanError) {
        bytes.removeAll(keepingCapacity: true)
        if path == standardInput {
            var info = stat()
            guard fstat(STDIN_FILENO, &info) == 0 else {
                throw .unreadableFile(reason: String(cString: strerror(errno)))
            }
            if isatty(STDIN_FILENO) == 1 {
                throw .unreadableFile(
                    reason: "standard input is a terminal; give the picture as in decode - < card.png")
            }
            let size = info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 0
            guard size <= maxBytes else {
                throw .unreadableFile(reason: "standard input is \(size) bytes, over the \(maxBytes)-byte limit")
            }
            return try readToEnd(STDIN_FILENO, sizeHint: size, into: &bytes)
        }
        var flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
        if !followSymlinks { flags |= O_NOFOLLOW }
        let fd = retryingOnInterrupt { open(path, flags) }
        if fd < 0 {
            let code = errno
            if code == ELOOP { throw .notARegularFile(kind: "a symbolic link, not followed") }
            throw .unreadableFile(reason: String(cString: strerror(code)))
        }
        defer { close(fd) }

        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadableFile(reason: String(cString: strerror(errno))) }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else { throw .notARegularFile(kind: describe(fileType: type)) }
        let size = Int(info.st_size)
        guard size <= maxBytes else {
            throw .unreadableFile(reason: "the file is \(size) bytes, over the \(maxBytes)-byte limit")
        }

        try readToEnd(fd, sizeHint: size, into: &bytes)
    }

    /// Reads `fd` to its end into `bytes`, refusing more than `maxBytes`.
    private static func readToEnd(_ fd: Int32, sizeHint size: Int, into bytes: inout [UInt8]) throws(ScanError) {
        // Read to end of file rather than trusting st_size: the file may still be growing or shrinking.
        // One byte more than st_size, so reaching end of file needs no second buffer growth.
        bytes.append(contentsOf: repeatElement(0, count: max(size, 0) + 1))
        var filled = 0
        do throws(ScanError) {
            while true {
                if filled == bytes.count {
                    guard bytes.count <= maxBytes else {
                        throw .unreadableFile(reason: "the file grew past the \(maxBytes)-byte limit")
                    }
                    // Doubling, but never past one byte over the limit: reading that byte means too long.
                    bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, maxBytes + 1 - bytes.count)))
                }
                let count = bytes.withUnsafeMutableBytes { buffer in
                    retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled) }
                }
                if count < 0 { throw .unreadableFile(reason: String(cString: strerror(errno))) }
                if count == 0 { break }
                filled += count
            }
        } catch {
            bytes.removeAll(keepingCapacity: true)
            throw error
        }
        bytes.removeLast(bytes.count - filled)
    }

    static func describe(fileType type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }
}
