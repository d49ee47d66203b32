import Glibc

/// What tells a file at a path from another put there since: its device and inode, size and change time. An
/// import compares the file it hashed with the one it read, so that a list replaced in between is not remembered
/// under the other's bytes.
public struct FileIdentity: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let changedSeconds: Int
    let changedNanoseconds: Int

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        changedSeconds = info.st_ctim.tv_sec
        changedNanoseconds = info.st_ctim.tv_nsec
    }

    /// The identity of the file at `path` now, or nil when it cannot be looked at. The C function is `stat`.
    public init?(ofFileAt path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }
}
