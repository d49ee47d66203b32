import CCrypto

/// PBKDF2 with HMAC-SHA-256: a key stretched from a password over a salt, slow on purpose by its iteration count.
/// The C function is libcrypto's `PKCS5_PBKDF2_HMAC` with `EVP_sha256`.
public enum PBKDF2 {
    public static func sha256(password: String, salt: [UInt8], iterations: Int, keyLength: Int) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: keyLength)
        // NUL-terminated, so never empty (an empty buffer may have no address); the NUL is not hashed.
        let password = Array(password.utf8CString)
        let status = password.withUnsafeBufferPointer { passwordBytes in
            salt.withUnsafeBufferPointer { saltBytes in
                key.withUnsafeMutableBufferPointer { keyBytes in
                    PKCS5_PBKDF2_HMAC(
                        passwordBytes.baseAddress, Int32(password.count - 1), saltBytes.baseAddress, Int32(salt.count),
                        Int32(iterations), EVP_sha256(), Int32(keyLength), keyBytes.baseAddress)
                }
            }
        }
        // A key of zeros must not go on to be stored or compared.
        guard status == 1 else { LibCrypto.failed("PKCS5_PBKDF2_HMAC") }
        return key
    }
}
