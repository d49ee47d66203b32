import CCrypto
import Glibc
import SystemCalls

/// SHA-256 of a file's bytes, as lowercase hex: the ledger's identity for "this content was processed"; and the
/// HMAC that signs a server's form tokens.
public enum ContentHash {
    /// The corresponding C function is libcrypto's `EVP_Digest` with `EVP_sha256`.
    public static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        guard ok == 1 else { failed("EVP_Digest") }
        return hex(digest.prefix(Int(length)))
    }

    /// HMAC-SHA-256 of `bytes` under `key`, as lowercase hex: what a server signs its form tokens with. The C
    /// function is libcrypto's `HMAC` with `EVP_sha256`.
    public static func hmacSHA256(key: [UInt8], _ bytes: [UInt8]) -> String {
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let made = key.withUnsafeBytes { keyBytes in
            bytes.withUnsafeBufferPointer { input in
                HMAC(
                    EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), input.baseAddress, input.count, &mac,
                    &length)
            }
        }
        guard made != nil else { failed("HMAC") }
        return hex(mac.prefix(Int(length)))
    }

    /// SHA-256 of the regular file at `path`, read 256 KiB at a time, so that a list of any size costs no more
    /// memory; nil for anything else (a pipe, a terminal), which reading would use up, and for a file that is no
    /// longer the one `expected` identifies. Throws for a file that cannot be opened or read. The C functions are
    /// `open`, `fstat`, `read` and libcrypto's `EVP_DigestInit_ex`, `EVP_DigestUpdate` and `EVP_DigestFinal_ex`.
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
        guard let context = EVP_MD_CTX_new() else { failed("EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { failed("EVP_DigestInit_ex") }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try valueOrErrno("read", path: path) { read(fd, buffer.baseAddress, buffer.count) }
            if count == 0 { break }
            guard EVP_DigestUpdate(context, buffer.baseAddress, count) == 1 else { failed("EVP_DigestUpdate") }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { failed("EVP_DigestFinal_ex") }
        return hex(digest.prefix(Int(length)))
    }

    /// Stops the process after a libcrypto call failed, which happens only when libcrypto cannot allocate or
    /// libcrypto.so.3 could not be loaded (Sources/CCrypto): nothing sensible can go on after either. `fatalError`,
    /// not `precondition`, so that a release build prints the message too.
    static func failed(_ call: String) -> Never {
        fatalError("libcrypto's \(call) failed: out of memory, or libcrypto.so.3 could not be loaded")
    }

    static func hex(_ digest: ArraySlice<UInt8>) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
