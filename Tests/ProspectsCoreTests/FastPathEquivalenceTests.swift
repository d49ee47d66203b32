import Foundation
import Testing

@testable import ProspectsCore

/// The byte-level shortcuts (ASCII and text below U+0300) must give exactly the general path's results: the same
/// accepted values, the same errors with the same details, the same dedup keys.
@Suite struct FastPathEquivalenceTests {
    /// ASCII pieces the checks react to: blanks, line breaks, every kind of control, dots, `@`, hyphens, quotes,
    /// symbols allowed and refused in a local part, both cases, digits.
    private static let asciiTokens = [
        "a", "Z", "q", "0", "7", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{00}", "\u{1B}", "\u{1F}",
        "\u{7F}", ".", "..", "@", "-", "\"", "'", "+", "_", "!", "#", "~", "`", "(", ",", ";", ":", "<", "[", "\\",
        "Paul", "HUDSON", "example", "com", "123", "xn--bcher-kva",
    ]

    /// Pieces below U+0300 that are not ASCII, and a few above it that send a field down the general path.
    private static let latinTokens = [
        "é", "Ø", "ß", "ÿ", "Ǆ", "ǅ", "ɐ", "İ", "\u{A0}", "\u{AD}", "\u{85}", "\u{9B}", "\u{80}", "\u{2FF}",
        "\u{301}", "\u{200B}", "\u{2028}", "\u{3000}", "e\u{301}", "\u{FE0F}",
    ]

    private static func randomText(_ tokens: [String], count: Int, using generator: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...count, using: &generator)).map { _ in tokens.randomElement(using: &generator)! }
            .joined()
    }

    /// Random ASCII text, address-shaped about half of the time.
    private static func asciiSamples(_ count: Int, seed: UInt64) -> [String] {
        var generator = SplitMix64(state: seed)
        return (0..<count).map { _ in
            let text = randomText(asciiTokens, count: 12, using: &generator)
            guard Bool.random(using: &generator) else { return text }
            let domain = randomText(asciiTokens, count: 6, using: &generator)
            return "\(text)@\(domain).\(randomText(asciiTokens, count: 3, using: &generator))"
        }
    }

    /// Addresses at the length limits: local parts of 63–65 bytes, addresses of 253–255 bytes, labels of 63–64.
    private static let limitAddresses: [String] = {
        var addresses: [String] = []
        for local in 63...65 {
            addresses.append(String(repeating: "a", count: local) + "@example.com")
            addresses.append(String(repeating: "B", count: local) + "@x.io")
        }
        for total in 253...255 {
            let label = String(repeating: "d", count: 60)
            var domain = "\(label).\(label).\(label)."
            let room = total - "abc@".count - domain.count
            domain += String(repeating: "e", count: max(1, room))
            addresses.append("abc@" + domain)
        }
        for length in 62...64 {
            addresses.append("user@" + String(repeating: "l", count: length) + ".com")
        }
        return addresses
    }()

    /// The cases of the existing email tests, accepted and refused.
    private static let knownAddresses = [
        "paul@example.com", "Paul.Hudson@Example.COM", "p@x.io", "first.last+tag@sub.domain.example.org",
        "!#$%&'*+-/=?^_`{|}~@example.com", "o'brien@example.ie", "user@bücher.example", "用户@例子.广告",
        "user@a-b.c-d.example", "user@123.example", "user@example.co1", "  paul@example.com\r\n",
        "user@bu\u{0308}cher.example", "", "   ", "paul.example.com", "paul@@example.com", "a@b@example.com",
        "\"a@b\"@example.com", "@example.com", ".paul@example.com", "paul.@example.com", "pa..ul@example.com",
        ".@example.com", "pa ul@example.com", "\"paul\"@example.com", "pa(ul)@example.com", "pa,ul@example.com",
        "<paul@example.com>", "pa\\ul@example.com", "pa:ul@example.com", "\u{0301}paul@example.com",
        "pa\u{200B}ul@example.com", "paul@", "paul@localhost", "paul@example.com.", "paul@.example.com",
        "paul@example..com", "paul@-example.com", "paul@example-.com", "paul@exa_mple.com", "paul@exa mple.com",
        "paul@[192.168.0.1]", "paul@example.com>", "paul@192.168.0.1", "paul@example.123", " paul@example.com",
        "paul@example.com\n", "\tA@B.C\r\n", "José@Example.com", "jose\u{301}@example.com", "x\u{0B}@y.z", "a\u{0B}",
        "\u{85}a@b.c", "a@b.c\u{A0}", "MIXED.Case+Tag@Sub.Example.ORG", " ", "İ@example.com", "ß@EXAMPLE.com",
        "K@example.com",
    ]

    private static var addressSamples: [String] {
        knownAddresses + limitAddresses + asciiSamples(6_000, seed: 0xA5C11)
    }

    private static var fieldSamples: [String] {
        var generator = SplitMix64(state: 0x1A7E)
        let mixed = (0..<4_000).map { _ in randomText(asciiTokens + latinTokens, count: 10, using: &generator) }
        return knownAddresses + asciiSamples(2_000, seed: 0xF1E1D) + mixed
            + ["Paul Hudson", " Zoë Ødegård\t", "\u{A0}Jürgen\u{A0}", "\u{AD}", " \u{A0} ", "\u{0B}Li", "Björn\u{85}"]
    }

    @Test func validateMatchesTheGeneralPath() {
        for address in Self.addressSamples {
            #expect(
                EmailAddress.validate(address) == EmailAddress.generalValidate(address), "\(address.debugDescription)")
        }
    }

    @Test func dedupKeyMatchesTheGeneralPath() {
        for address in Self.addressSamples + Self.fieldSamples {
            #expect(DedupKey.make(address) == DedupKey.generalMake(address), "\(address.debugDescription)")
        }
    }

    @Test func fieldChecksMatchTheGeneralPath() {
        for text in Self.fieldSamples + Self.addressSamples {
            let described = text.debugDescription
            #expect(ProspectBuilder.cleanName(text) == ProspectBuilder.generalCleanName(text), "\(described)")
            #expect(ProspectBuilder.cleanEmail(text) == ProspectBuilder.generalCleanEmail(text), "\(described)")
            #expect(
                ProspectBuilder.cleanOptional(text, field: "phone")
                    == ProspectBuilder.generalCleanOptional(text, field: "phone"), "\(described)")
        }
        #expect(ProspectBuilder.cleanEmail(nil) == ProspectBuilder.generalCleanEmail(nil))
    }

    /// Every scalar below U+0300, alone and inside text: the byte-level predicates against the property lookups.
    @Test func latinPredicatesMatchUnicodeProperties() {
        for value in UInt32(0)..<0x300 {
            let scalar = Unicode.Scalar(value)!
            #expect(LatinText.isUnsafe(value) == SafeText.isUnsafeByProperties(scalar), "U+\(String(value, radix: 16))")
            #expect(
                LatinText.isSpace(value) == (ScalarText.isBlank(scalar) || ScalarText.isLineBreak(scalar)),
                "U+\(String(value, radix: 16))")
            #expect(LatinText.isVisible(value) == ProspectBuilder.isVisible(scalar), "U+\(String(value, radix: 16))")
            let text = String(scalar)
            #expect(text.precomposedStringWithCanonicalMapping == text)
            for field in [text, " x\(text)y ", "\(text)\(text)", "\u{A0}\(text)"] {
                #expect(ProspectBuilder.cleanName(field) == ProspectBuilder.generalCleanName(field))
                #expect(ProspectBuilder.cleanEmail(field) == ProspectBuilder.generalCleanEmail(field))
                #expect(DedupKey.make(field) == DedupKey.generalMake(field))
            }
        }
    }
}
