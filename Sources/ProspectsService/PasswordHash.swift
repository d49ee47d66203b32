import Crypto

/// A password kept as PBKDF2-HMAC-SHA256 (libcrypto) over a random 16-byte salt, encoded as
/// `pbkdf2-sha256$ITERATIONS$SALT$KEY` (hex): slow on purpose, so that a copied store does not give the passwords
/// away. The count travels with the hash, so raising the default later leaves older hashes verifiable.
public struct PasswordHash: Sendable, Hashable {
    /// OWASP's figure for PBKDF2-HMAC-SHA256.
    public static let defaultIterations = 600_000
    static let scheme = "pbkdf2-sha256"

    public let iterations: Int
    public let salt: [UInt8]
    public let key: [UInt8]

    /// Hashes `password` under a fresh salt.
    public init(password: String, iterations: Int = PasswordHash.defaultIterations) {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        self.iterations = iterations
        self.salt = salt
        key = Self.derive(password, salt: salt, iterations: iterations)
    }

    /// Reads an encoded hash; nil for anything that is not one.
    public init?(encoded: String) {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Self.scheme, let iterations = Int(parts[1]), iterations > 0,
            iterations <= 100_000_000, let salt = Self.bytes(hex: parts[2]), let key = Self.bytes(hex: parts[3]),
            key.count == 32
        else { return nil }
        self.iterations = iterations
        self.salt = salt
        self.key = key
    }

    public var encoded: String {
        "\(Self.scheme)$\(iterations)$\(Self.hex(salt))$\(Self.hex(key))"
    }

    /// True when `password` is the one hashed; compares in time that does not depend on where the keys differ.
    public func matches(_ password: String) -> Bool {
        let derived = Self.derive(password, salt: salt, iterations: iterations)
        guard derived.count == key.count else { return false }
        return zip(derived, key).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func derive(_ password: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        PBKDF2.sha256(password: password, salt: salt, iterations: iterations, keyLength: 32)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2), !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}
