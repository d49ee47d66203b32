import Glibc

/// A system call that failed, with its errno and the path it concerned, for messages a person can act on.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function's name (`renameat2`, `open`, `inotify_add_watch`…).
    public var call: String
    /// The path the call was about, or an empty string.
    public var path: String
    public var code: Int32

    public init(_ call: String, path: String = "", code: Int32 = errno) {
        self.call = call
        self.path = path
        self.code = code
    }

    /// `strerror` of the code, e.g. "No such file or directory".
    public var reason: String { String(cString: strerror(code)) }

    public var message: String { path.isEmpty ? "\(call): \(reason)" : "\(call) \(path): \(reason)" }

    /// True for an error that says something about one file rather than about the file system or the machine: its
    /// name (too long), its owner or mode (a sticky folder, no permission), a busy file, a read-only mount. A watcher
    /// reports such a file and goes on; any other error (no space, I/O error, a folder gone) stops it, so that a
    /// restart can set things right.
    public var concernsOneFile: Bool {
        [ENAMETOOLONG, EPERM, EACCES, EROFS, EBUSY, ETXTBSY, EINVAL, ELOOP, EMLINK, EXDEV, EISDIR, ENOTEMPTY, EEXIST]
            .contains(code)
    }
    public var description: String { message }
}
