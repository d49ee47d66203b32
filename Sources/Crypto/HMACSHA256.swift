import CCrypto

/// HMAC-SHA-256 of bytes under a key, as lowercase hex: what a server signs its form tokens with. The C function is
/// libcrypto's `HMAC` with `EVP_sha256`.
public enum HMACSHA256 {
    public static func hex(key: [UInt8], _ bytes: [UInt8]) -> String {
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let made = key.withUnsafeBytes { keyBytes in
            bytes.withUnsafeBufferPointer { input in
                HMAC(
                    EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), input.baseAddress, input.count, &mac,
                    &length)
            }
        }
        guard made != nil else { LibCrypto.failed("HMAC") }
        return Hex.lowercase(mac.prefix(Int(length)))
    }
}
