import Testing

@testable import ProspectsCore

/// `NameKey.sortKey` works on UTF-8 bytes; it must give exactly what the scalar-by-scalar rule gives (each run of
/// ASCII digits, leading zeros dropped, padded to 20 digits), for any text: digits next to letters of every width,
/// runs of zeros, runs longer than 20 digits, and digits of other scripts, which are no ASCII digits.
@Suite struct SortKeyEquivalenceTests {
    /// The rule as it was written first, by Unicode scalars: the reference.
    static func referenceSortKey(folded: String) -> String {
        guard folded.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return folded }
        var out = String.UnicodeScalarView()
        var digits = String.UnicodeScalarView()
        func flushDigits() {
            guard !digits.isEmpty else { return }
            let significant = digits.drop { $0 == "0" }
            if significant.count < 20 { out.append(contentsOf: repeatElement("0", count: 20 - significant.count)) }
            out.append(contentsOf: significant)
            digits.removeAll()
        }
        for scalar in folded.unicodeScalars {
            if (0x30...0x39).contains(scalar.value) {
                digits.append(scalar)
            } else {
                flushDigits()
                out.append(scalar)
            }
        }
        flushDigits()
        return String(out)
    }

    private static let tokens = [
        "0", "00", "1", "7", "09", "10", "123", String(repeating: "9", count: 21), String(repeating: "0", count: 25),
        "person ", " ", "-", "a", "z", "é", "ß", "李", "😀", "٣", "१", "５", "\u{301}", "e\u{301}", "#", ".",
    ]

    @Test func bytesGiveTheScalarRulesKeyForRandomText() {
        var generator = SplitMix64(state: 35)
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...10, using: &generator)).map { _ in
                Self.tokens.randomElement(using: &generator)!
            }.joined()
            #expect(NameKey.sortKey(folded: text) == Self.referenceSortKey(folded: text), "\(text.debugDescription)")
        }
    }

    @Test func knownKeys() {
        #expect(NameKey.sortKey(folded: "person 2") == "person 00000000000000000002")
        #expect(NameKey.sortKey(folded: "person 0") == "person 00000000000000000000")
        #expect(NameKey.sortKey(folded: "no digits") == "no digits")
        let long = String(repeating: "1", count: 22)
        #expect(NameKey.sortKey(folded: "x\(long)") == "x\(long)", "a run longer than 20 digits is kept whole")
        #expect(NameKey.sortKey(folded: "李2") == "李00000000000000000002")
    }
}
