import CCrypto

/// SHA-256 of a file's bytes, as lowercase hex: the ledger's identity for "this content was processed".
public enum ContentHash {
    /// The corresponding C function is libcrypto's `EVP_Digest` with `EVP_sha256`.
    public static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest only fails on allocation failure inside libcrypto; nothing sensible can go on after that.
        precondition(ok == 1, "libcrypto's EVP_Digest failed")
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(Int(length) * 2)
        for byte in digest.prefix(Int(length)) {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
