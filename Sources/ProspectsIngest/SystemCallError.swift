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
    public var description: String { message }
}
