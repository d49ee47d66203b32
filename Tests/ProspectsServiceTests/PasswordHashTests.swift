import ProspectsService
import Testing

/// The slow salted hash accounts keep instead of passwords.
@Suite struct PasswordHashTests {
    @Test func matchesItsPasswordOnlyAndReadsBackFromItsEncoding() throws {
        let hash = PasswordHash(password: "correct horse battery", iterations: 1_000)
        #expect(hash.matches("correct horse battery"))
        #expect(!hash.matches("correct horse batterY"))
        #expect(!hash.matches(""))
        let encoded = hash.encoded
        #expect(encoded.hasPrefix("pbkdf2-sha256$1000$"))
        #expect(!encoded.contains("correct"))
        let read = try #require(PasswordHash(encoded: encoded))
        #expect(read == hash)
        #expect(read.matches("correct horse battery"))
    }

    @Test func eachHashHasItsOwnSalt() {
        let first = PasswordHash(password: "same password", iterations: 1_000)
        let second = PasswordHash(password: "same password", iterations: 1_000)
        #expect(first.salt != second.salt)
        #expect(first.key != second.key)
        #expect(first.salt.count == 16)
    }

    @Test func isPBKDF2HMACSHA256() throws {
        // RFC 7914 §11's PBKDF2-HMAC-SHA256 vector: P = "passwd", S = "salt", c = 1, first 32 bytes.
        let vector = try #require(
            PasswordHash(
                encoded: "pbkdf2-sha256$1$73616c74$55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"))
        #expect(vector.matches("passwd"))
        #expect(!vector.matches("passwe"))
    }

    @Test func theDefaultCountIsHigh() {
        #expect(PasswordHash.defaultIterations >= 600_000)
    }

    @Test func refusesWhatIsNotAnEncodedHash() {
        for text in [
            "", "plain", "pbkdf2-sha256$0$00$00", "md5$1$00$" + String(repeating: "0", count: 64),
            "pbkdf2-sha256$1$zz$" + String(repeating: "0", count: 64), "pbkdf2-sha256$1$00$00",
        ] {
            #expect(PasswordHash(encoded: text) == nil, "\(text)")
        }
    }
}
