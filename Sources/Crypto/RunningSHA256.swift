import CCrypto

/// SHA-256 fed a piece at a time, for a digest of more than should be held at once (a file read in chunks, a copied
/// store's rows). The C functions are libcrypto's `EVP_DigestInit_ex`, `EVP_DigestUpdate` and `EVP_DigestFinal_ex`.
public final class RunningSHA256 {
    private let context: OpaquePointer

    public init() {
        guard let context = EVP_MD_CTX_new() else { LibCrypto.failed("EVP_MD_CTX_new") }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { LibCrypto.failed("EVP_DigestInit_ex") }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else {
            LibCrypto.failed("EVP_DigestUpdate")
        }
    }

    /// The digest as lowercase hex; the object is used up.
    public func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { LibCrypto.failed("EVP_DigestFinal_ex") }
        return Hex.lowercase(digest.prefix(Int(length)))
    }
}

@available(*, unavailable) extension RunningSHA256: Sendable {}
