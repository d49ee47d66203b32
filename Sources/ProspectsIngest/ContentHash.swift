import Crypto
import Glibc
import SystemCalls

/// SHA-256 of a file's bytes, as lowercase hex: the ledger's identity for "this content was processed".
public enum ContentHash {
    /// SHA-256 of bytes held at once (Crypto's `SHA256`).
    public static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hex(bytes)
    }

    /// SHA-256 of the regular file at `path`, read 256 KiB at a time, so that a list of any size costs no more
    /// memory; nil for anything else (a pipe, a terminal), which reading would use up, and for a file that is no
    /// longer the one `expected` identifies. Throws for a file that cannot be opened or read. The C functions are
    /// `open`, `fstat` and `read`; the digest is Crypto's `RunningSHA256`.
    public static func sha256(ofRegularFile path: String, expected: FileIdentity? = nil) throws(SystemCallError)
        -> String?
    {
        // Non-blocking, so that a FIFO nobody writes to yet is not waited for here.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw SystemCallError("open", path: path) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemCallError("fstat", path: path) }
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        if let expected, FileIdentity(info) != expected { return nil }
        let digest = RunningSHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try valueOrErrno("read", path: path) { read(fd, buffer.baseAddress, buffer.count) }
            if count == 0 { break }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return digest.finish()
    }
}
