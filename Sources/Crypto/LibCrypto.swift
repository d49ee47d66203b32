/// What happens when a libcrypto call fails.
enum LibCrypto {
    /// Stops the process after a libcrypto call failed, which happens only when libcrypto cannot allocate or
    /// libcrypto.so.3 could not be loaded (Sources/CCrypto): nothing sensible can go on after either, and a digest or
    /// key of zeros must never be used. `fatalError`, not `precondition`, so that a release build prints the message.
    static func failed(_ call: String) -> Never {
        fatalError("libcrypto's \(call) failed: out of memory, or libcrypto.so.3 could not be loaded")
    }
}
