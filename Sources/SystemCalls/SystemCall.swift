import Glibc

/// Calls `body` again while it fails with `EINTR` and returns its last result, -1 with `errno` set included: the one
/// place in the package that retries an interrupted system call.
@inline(__always)
public func retryingOnInterrupt<T: FixedWidthInteger>(_ body: () -> T) -> T {
    while true {
        let result = body()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}

/// Calls `body`, retrying on `EINTR`, and returns its result, or throws the `errno` it left as a `SystemCallError`
/// naming `call` and `path` (the `valueOrErrno` of swift-system).
@inline(__always)
public func valueOrErrno<T: FixedWidthInteger>(
    _ call: String, path: String = "", _ body: () -> T
) throws(SystemCallError) -> T {
    let result = retryingOnInterrupt(body)
    if result == -1 { throw SystemCallError(call, path: path) }
    return result
}

/// Writes every byte of `bytes` to `fd`, going on after short writes and `EINTR`. The corresponding C function is
/// `write`.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String = "") throws(SystemCallError) {
    var offset = 0
    while offset < bytes.count {
        let written = try valueOrErrno("write", path: path) {
            write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        }
        // A write that takes nothing would loop forever; the kernel does that only for a file it cannot extend.
        guard written > 0 else { throw SystemCallError("write", path: path, code: EIO) }
        offset += written
    }
}

/// Writes every byte of `bytes` to `fd`. The corresponding C function is `write`.
public func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String = "") throws(SystemCallError) {
    do {
        try bytes.withUnsafeBytes { raw in try writeAll(fd, raw, path: path) }
    } catch let error as SystemCallError {
        throw error
    } catch {
        preconditionFailure("writeAll throws only SystemCallError")
    }
}
