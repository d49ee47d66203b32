import CLinux
import Glibc
import SystemCalls

/// What `lstat` (or `stat`) says about a directory entry.
struct EntryInfo: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case regular, directory, symbolicLink, fifo, socket, device
    }

    var kind: Kind
    var device: UInt64
    var inode: UInt64
    var links: Int
    var size: Int
    /// Last modification, seconds since 1970 (with the nanoseconds).
    var modified: Double
    /// Last change of the content or of the entry's owner, mode or links (`st_ctim`): any change at all.
    var changed: Double

    /// The device and inode: which file or folder this is, whatever path leads to it.
    var identity: [UInt64] { [device, inode] }
}

extension EntryInfo {
    init(_ info: stat) {
        kind =
            switch info.st_mode & S_IFMT {
            case S_IFREG: .regular
            case S_IFDIR: .directory
            case S_IFLNK: .symbolicLink
            case S_IFIFO: .fifo
            case S_IFSOCK: .socket
            default: .device
            }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        links = Int(info.st_nlink)
        size = Int(info.st_size)
        modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        changed = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
    }
}

/// The file-system calls the watcher makes, each in one place, with errno turned into `SystemCallError`.
enum FileSystemCalls {
    /// Renames `from` to `to`, failing with `EEXIST` rather than ever replacing what is at `to`. Atomic: after a
    /// crash the entry is at exactly one of the two names. The corresponding C function is `renameat2`.
    static func renameNoReplace(_ from: String, _ to: String) throws(SystemCallError) {
        if retryingOnInterrupt({ prospects_rename_noreplace(AT_FDCWD, from, AT_FDCWD, to) }) != 0 {
            throw SystemCallError("renameat2", path: "\(from) → \(to)")
        }
    }

    /// Whether some process has the regular file at `path` open for writing; nil when that cannot be told (a file
    /// of another owner, without CAP_LEASE). The C function is `fcntl` with `F_SETLEASE`.
    static func isOpenForWriting(_ path: String) -> Bool? {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if prospects_probe_read_lease(fd) == 0 { return false }
        return errno == EAGAIN ? true : nil
    }

    /// The entry at `path` itself (a link is described, not followed), or with `following` what it leads to (a
    /// configured folder may be a link to one); nil when nothing is there. The C functions are `lstat` and `stat`.
    static func entry(_ path: String, following: Bool = false) throws(SystemCallError) -> EntryInfo? {
        var info = stat()
        if (following ? stat(path, &info) : lstat(path, &info)) != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(following ? "stat" : "lstat", path: path)
        }
        return EntryInfo(info)
    }

    /// The absolute path of `path` with every symbolic link, `.` and `..` resolved, or nil when it does not
    /// resolve. The corresponding C function is `realpath`.
    static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Creates a directory; one that already exists is fine. The corresponding C function is `mkdir`.
    /// True when this call made it, false when it was there already.
    @discardableResult
    static func makeDirectory(_ path: String, mode: mode_t = 0o755) throws(SystemCallError) -> Bool {
        if mkdir(path, mode) == 0 { return true }
        if errno == EEXIST { return false }
        throw SystemCallError("mkdir", path: path)
    }

    /// Removes an empty directory the watcher made itself; a missing or non-empty one is left as it is.
    /// The corresponding C function is `rmdir`.
    static func removeEmptyDirectory(_ path: String) {
        _ = rmdir(path)
    }

    /// Removes one of the watcher's own bookkeeping files (a lock, a temporary reason file), never an input.
    /// The corresponding C function is `unlink`.
    static func removeOwnFile(_ path: String) {
        _ = unlink(path)
    }

    /// The names in a directory, except `.` and `..`, in no particular order. The C function is `readdir`.
    static func names(in directory: String) throws(SystemCallError) -> [String] {
        try listing(of: directory).names
    }

    /// The names in a directory, except `.` and `..`, and apart those that are not UTF-8 (`undecodable`, shown
    /// with U+FFFD for each bad byte): no path built from a String can reach those files.
    static func listing(of directory: String) throws(SystemCallError) -> (names: [String], undecodable: [String]) {
        guard let dir = opendir(directory) else { throw SystemCallError("opendir", path: directory) }
        defer { closedir(dir) }
        var names: [String] = []
        var undecodable: [String] = []
        while let entry = readdir(dir) {
            switch FileName(name(of: entry)) {
            case .valid(let name): if name != "." && name != ".." { names.append(name) }
            case .undecodable(let shown): undecodable.append(shown)
            }
        }
        return (names, undecodable)
    }

    /// The bytes of the name of an entry `readdir` returned, without its NUL. Read in place: `entry.pointee.d_name`
    /// copies the whole 256-byte array, past the end of a short entry at the end of readdir's buffer (a heap
    /// overflow AddressSanitizer found on a folder of 1,500 files).
    static func name(of entry: UnsafePointer<dirent>) -> UnsafeBufferPointer<UInt8> {
        let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \.d_name)!
        return UnsafeBufferPointer(
            start: start.assumingMemoryBound(to: UInt8.self), count: strlen(start.assumingMemoryBound(to: CChar.self)))
    }

    /// Writes `bytes` to a new file at `path` and syncs them, failing if anything is there already, so that a
    /// rename that publishes the file never outlives its content in a power cut. The C function is `open` with
    /// `O_CREAT | O_EXCL`, then `fsync`.
    static func createFile(_ path: String, bytes: [UInt8], mode: mode_t = 0o644) throws(SystemCallError) {
        let fd = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode) }
        if fd < 0 { throw SystemCallError("open", path: path) }
        defer { close(fd) }
        try writeAll(fd, bytes, path: path)
        if fsync(fd) != 0 { throw SystemCallError("fsync", path: path) }
    }

    /// Syncs a folder, so that the renames into it so far survive a power cut. The C function is `fsync` on the
    /// folder opened read-only.
    static func syncFolder(_ path: String) throws(SystemCallError) {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if fd < 0 { throw SystemCallError("open", path: path) }
        defer { close(fd) }
        if fsync(fd) != 0 { throw SystemCallError("fsync", path: path) }
    }

    /// The whole content of a small file of the watcher's own (a reason file), or nil when it cannot be read.
    static func contents(_ path: String, limit: Int = 1 << 16) -> [UInt8]? {
        guard let bytes = try? InputFile.read(path, followSymlinks: false), bytes.count <= limit else { return nil }
        return bytes
    }
}
