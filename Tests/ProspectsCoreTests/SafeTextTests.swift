import ProspectsCore
import Testing

@Suite struct SafeTextTests {
    @Test func controlsAreShownAsEscapes() {
        #expect(SafeText.escaped("a\u{1B}]0;x\u{7}b") == #"a\u{1B}]0;x\u{7}b"#)
        #expect(SafeText.escaped("line\nnext\r\tend") == #"line\nnext\r\tend"#)
        #expect(SafeText.escaped("\u{202E}abc") == #"\u{202E}abc"#)
        #expect(SafeText.escaped("a\u{0}b") == #"a\u{0}b"#)
    }

    @Test func backslashesAreDoubledSoEscapesAreUnambiguous() {
        #expect(SafeText.escaped(#"a\u{1B}"#) == #"a\\u{1B}"#)
    }

    @Test func ordinaryTextIsUnchanged() {
        #expect(SafeText.escaped("Zoë Björk 用户 ❤️") == "Zoë Björk 用户 ❤️")
    }

    @Test func theLimitCutsAndMarksTheCut() {
        #expect(SafeText.escaped("abcdef", limit: 3) == "abc…")
        #expect(SafeText.escaped("abc", limit: 3) == "abc")
        #expect(SafeText.escaped("", limit: 0) == "")
        #expect(SafeText.escaped("a", limit: 0) == "…")
        #expect(SafeText.escaped("\u{1B}\u{1B}\u{1B}", limit: 2) == #"\u{1B}\u{1B}…"#)
    }

    @Test func theLimitCountsScalarsSoCombiningMarksCannotStretchIt() {
        let zalgo = "a" + String(repeating: "\u{0301}", count: 1_000)  // one Character, 1,001 scalars
        #expect(SafeText.escaped(zalgo, limit: 10).unicodeScalars.count == 11)
    }

    @Test(
        arguments: [
            0x00, 0x1B, 0x7F, 0x85, 0x9B, 0x200B, 0x200E, 0x2028, 0x202A, 0x202E, 0x2066, 0x2069, 0xFEFF, 0x00AD,
            0x061C, 0x180E, 0x3164, 0xFFA0, 0x115F, 0x034F, 0xE0001, 0xE007F, 0xFDD0, 0xFFFE, 0x1FFFF,
        ] as [UInt32])
    func unsafeScalars(value: UInt32) {
        #expect(SafeText.isUnsafe(Unicode.Scalar(value)!))
    }

    @Test(arguments: [0x20, 0x41, 0xE9, 0xA0, 0x3000, 0x4E2D, 0x0301, 0xFE0F, 0xE0100, 0x1F600, 0x2800] as [UInt32])
    func safeScalars(value: UInt32) {
        #expect(!SafeText.isUnsafe(Unicode.Scalar(value)!))
    }

    @Test func codePointsAreNamedIncludingControls() {
        #expect(SafeText.codePoint(0x1B) == "U+001B ESCAPE")
        #expect(SafeText.codePoint(0x00) == "U+0000 NULL")
        #expect(SafeText.codePoint(0x202E) == "U+202E RIGHT-TO-LEFT OVERRIDE")
        #expect(SafeText.codePoint(0x1F600) == "U+1F600 GRINNING FACE")
        #expect(SafeText.codePoint(0x01) == "U+0001")
    }

    @Test func firstUnsafe() {
        #expect(SafeText.firstUnsafe(in: "ok\u{200B}\u{1B}") == "\u{200B}")
        #expect(SafeText.firstUnsafe(in: "ok") == nil)
    }
}
