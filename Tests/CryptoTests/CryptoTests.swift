import Crypto
import Testing

/// Known answers from the standards (FIPS 180-2, RFC 4231, RFC 7914's PBKDF2-HMAC-SHA256 vectors), through the
/// real libcrypto.
@Suite struct CryptoTests {
    @Test func sha256MatchesTheStandardsVectors() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func runningSHA256FedInPiecesEqualsTheDigestAtOnce() {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let running = RunningSHA256()
        for start in stride(from: 0, to: bytes.count, by: 7_919) {
            running.update(Array(bytes[start..<min(start + 7_919, bytes.count)]))
        }
        #expect(running.finish() == SHA256.hex(bytes))
    }

    @Test func hmacSHA256MatchesRFC4231() {
        #expect(
            HMACSHA256.hex(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func pbkdf2SHA256MatchesTheKnownVectors() {
        let salt = Array("salt".utf8)
        #expect(
            Hex.lowercase(PBKDF2.sha256(password: "password", salt: salt, iterations: 1, keyLength: 32))
                == "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b")
        #expect(
            Hex.lowercase(PBKDF2.sha256(password: "password", salt: salt, iterations: 2, keyLength: 32))
                == "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43")
        #expect(PBKDF2.sha256(password: "", salt: salt, iterations: 1, keyLength: 32).count == 32)
    }

    @Test func hexWritesTwoLowercaseDigitsAByte() {
        #expect(Hex.lowercase([0x00, 0x0F, 0xA5, 0xFF]) == "000fa5ff")
        #expect(Hex.lowercase([]) == "")
    }
}
