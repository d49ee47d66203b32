import ProspectsCore
import Testing

/// `SafeText.neutralized`: the last guard before stderr, for messages made of already escaped parts.
@Suite struct NeutralizedTextTests {
    @Test func escapesOnlyUnsafeScalarsAndKeepsBackslashesAndLineFeeds() {
        #expect(SafeText.neutralized("unknown option '--\u{1B}[2J'") == #"unknown option '--\u{1B}[2J'"#)
        #expect(SafeText.neutralized("a\u{202E}b\u{200B}c\u{9B}d\u{0}") == #"a\u{202E}b\u{200B}c\u{9B}d\u{0}"#)
        // Already escaped text passes unchanged: no doubled backslashes.
        let escaped = SafeText.escaped("Eve\u{1B}]0;x\u{7}")
        #expect(SafeText.neutralized(escaped) == escaped)
        #expect(SafeText.neutralized("two\nlines, a \\ backslash, Zoë, 李小龙") == "two\nlines, a \\ backslash, Zoë, 李小龙")
    }

    @Test func itsOutputHoldsNoUnsafeScalarButLineFeeds() {
        var all = String.UnicodeScalarView()
        for value in UInt32(0)...0x2FFF { if let scalar = Unicode.Scalar(value) { all.append(scalar) } }
        let out = SafeText.neutralized(String(all))
        #expect(out.unicodeScalars.allSatisfy { $0 == "\n" || !SafeText.isUnsafe($0) })
    }
}
