import Foundation
import ProspectsCore
import Testing

/// Anyone can print a QR code: nothing in a name or address may drive a terminal or hide from a reader.
@Suite struct UnsafeCharacterTests {
    @Test(arguments: [
        ("Paul\u{0}Hudson", UInt32(0x00)),  // NUL
        ("\u{1B}]0;pwned\u{7}Paul", 0x1B),  // OSC 0: set the terminal title
        ("Paul\u{1B}]52;c;ZWNobyBoaQ==\u{7}", 0x1B),  // OSC 52: write the clipboard
        ("Paul\u{1B}[2J", 0x1B),  // CSI: clear the screen
        ("Paul\u{9B}31m", 0x9B),  // 8-bit CSI
        ("Paul\u{7F}", 0x7F),  // DEL
        ("Paul\tHudson", 0x09),  // a tab inside a name (at the ends it is trimmed)
        ("Paul\u{0B}", 0x0B),  // vertical tab is not trimmed as a blank
        ("Paul\u{85}Hudson", 0x85),  // NEL
        ("Paul\u{2028}Hudson", 0x2028),  // line separator
        ("\u{202E}nosduH luaP", 0x202E),  // right-to-left override
        ("Paul\u{2066}Hudson\u{2069}", 0x2066),  // left-to-right isolate
        ("Paul\u{200B}Hudson", 0x200B),  // zero-width space
        ("\u{200B}", 0x200B),  // a name that is only invisible
        ("Paul\u{200D}Hudson", 0x200D),  // zero-width joiner
        ("Paul\u{00AD}", 0xAD),  // soft hyphen
        ("Paul\u{FEFF}", 0xFEFF),  // a BOM inside the name
        ("\u{3164}", 0x3164),  // Hangul filler: a letter that draws as nothing
        ("Pa\u{034F}ul", 0x34F),  // combining grapheme joiner
        ("Paul\u{E0041}", 0xE0041),  // tag character
        ("Paul\u{FFFF}", 0xFFFF),  // noncharacter
    ])
    func unsafeInTheName(name: String, scalar: UInt32) {
        #expect(failure("\(name)\npaul@example.com") == .unsafeCharacters(field: "name", scalar: scalar))
    }

    @Test(arguments: [
        ("paul\u{0}@example.com", UInt32(0x00)),
        ("paul@example.com\u{1B}]0;x\u{7}", 0x1B),
        ("\u{202E}moc.elpmaxe@luap", 0x202E),
        ("pa\u{200B}ul@example.com", 0x200B),
        ("paul@exa\u{2066}mple.com", 0x2066),
        ("paul@example.com\u{200B}", 0x200B),  // zero-width space is not trimmed as a blank
    ])
    func unsafeInTheEmail(email: String, scalar: UInt32) {
        #expect(failure("Paul Hudson\n\(email)") == .unsafeCharacters(field: "email", scalar: scalar))
    }

    @Test func variationSelectorsAreNotUnsafe() {
        // ❤️ is U+2764 U+FE0F: the selector only picks the emoji glyph.
        #expect(parse("Paul ❤️\npaul@example.com") == ok("Paul ❤️", "paul@example.com"))
    }

    @Test func theMessageNamesTheCharacter() {
        let error = failure("\u{1B}]0;x\u{7}\np@example.com")
        #expect(error?.message == "the name contains an unsafe character (U+001B ESCAPE)")
        #expect(error?.kind == "unsafeCharacters")
        let bidi = failure("\u{202E}x\np@example.com")
        #expect(bidi?.message == "the name contains an unsafe character (U+202E RIGHT-TO-LEFT OVERRIDE)")
    }

    @Test func everyFormatChecksEveryField() {
        #expect(
            failure("MECARD:N:Paul\u{1B}[2J;EMAIL:p@example.com;;") == .unsafeCharacters(field: "name", scalar: 0x1B))
        #expect(
            failure("MECARD:N:Paul;EMAIL:p@example.com;TEL:555\u{202E}0100;;")
                == .unsafeCharacters(field: "phone", scalar: 0x202E))
        #expect(
            failure("MECARD:N:Paul;EMAIL:p@example.com;ORG:Acme\u{200B};;")
                == .unsafeCharacters(field: "organization", scalar: 0x200B))
        #expect(
            failure("BEGIN:VCARD\nFN:Paul\\nHudson\nEMAIL:p@example.com\nEND:VCARD")
                == .unsafeCharacters(field: "name", scalar: 0x0A))
        #expect(failure("mailto:pa%00ul@example.com") == .unsafeCharacters(field: "email", scalar: 0))
        #expect(failure("mailto:%1B%5D0;x@example.com") == .unsafeCharacters(field: "email", scalar: 0x1B))
        #expect(failure("\"Paul\u{7}\" <p@example.com>") == .unsafeCharacters(field: "name", scalar: 7))
    }
}
