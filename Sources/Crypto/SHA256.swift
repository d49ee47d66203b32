import CCrypto

/// SHA-256 of bytes held at once, as lowercase hex. The C function is libcrypto's `EVP_Digest` with `EVP_sha256`.
public enum SHA256 {
    public static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        guard ok == 1 else { LibCrypto.failed("EVP_Digest") }
        return Hex.lowercase(digest.prefix(Int(length)))
    }
}
