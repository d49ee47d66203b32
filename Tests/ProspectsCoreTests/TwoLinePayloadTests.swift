import Foundation
import ProspectsCore
import Testing

/// The Hot Prospects contract: `Name\nemail`.
@Suite struct TwoLinePayloadTests {
    @Test func theClassicPayload() {
        #expect(parse("Paul Hudson\npaul@hackingwithswift.com") == ok("Paul Hudson", "paul@hackingwithswift.com"))
        #expect(format("Paul Hudson\npaul@hackingwithswift.com") == .lines)
    }

    @Test(arguments: [
        "Paul Hudson\r\npaul@example.com",  // CRLF
        "Paul Hudson\npaul@example.com\n",  // one trailing break
        "Paul Hudson\r\npaul@example.com\r\n",
        "Paul Hudson\npaul@example.com\n\n  \n",  // several trailing blank lines
        "  Paul Hudson  \n\tpaul@example.com \t",  // blanks around each line
        "\u{FEFF}Paul Hudson\npaul@example.com",  // a BOM
        "Paul Hudson\u{00A0}\n\u{3000}paul@example.com",  // NBSP and ideographic space are blanks too
        "Paul Hudson\rpaul@example.com",  // a lone CR (classic Mac) is a line break
    ])
    func lineBreaksAndBlanksAreTolerated(payload: String) {
        #expect(parse(payload) == ok("Paul Hudson", "paul@example.com"))
    }

    @Test func caseIsKeptAsWritten() {
        #expect(parse("paul HUDSON\nPaul@Example.COM") == ok("paul HUDSON", "Paul@Example.COM"))
    }

    @Test func innerBlanksOfTheNameAreKept() {
        #expect(parse("Paul   Hudson\np@example.com") == ok("Paul   Hudson", "p@example.com"))
    }

    @Test(arguments: [
        ("Paul Hudson paul@example.com", 1),
        ("Paul\nHudson\npaul@example.com", 3),
        ("Paul Hudson\n\npaul@example.com", 3),  // a blank inner line counts
        ("\n\nPaul Hudson\npaul@example.com", 4),  // so do leading blank lines
        ("Paul Hudson\npaul@example.com\nAcme Inc.\n+1 555 0100", 4),
    ])
    func anythingButTwoLinesIsAWrongLineCount(payload: String, lines: Int) {
        #expect(failure(payload) == .wrongLineCount(lines))
    }

    @Test(arguments: ["", " ", "\n", "\r\n\r\n", "\u{FEFF}", " \t\n"])
    func anEmptyPayloadHasNoLines(payload: String) {
        #expect(failure(payload) == .wrongLineCount(0))
    }

    @Test(arguments: ["\npaul@example.com", "  \npaul@example.com", "\t\r\npaul@example.com"])
    func aBlankFirstLineIsAnEmptyName(payload: String) {
        #expect(failure(payload) == .emptyName)
    }

    @Test(arguments: ["\u{0301}\npaul@example.com", "\u{FE0F}\npaul@example.com", "\u{2800}\npaul@example.com"])
    func aNameThatDrawsAsNothingIsEmpty(payload: String) {
        #expect(failure(payload) == .emptyName)
    }

    @Test func theNameIsPutInNFC() {
        let decomposed = "Zoe\u{0308} Bjo\u{0308}rk"  // e + combining diaeresis
        let result = parse("\(decomposed)\nzoe\u{0308}@example.com")
        #expect(result == ok("Zoë Björk", "zoë@example.com"))
        let prospect = try? result.get()
        #expect(prospect?.name.unicodeScalars.count == 9)
        #expect(prospect?.email.unicodeScalars.count == 15)
    }

    @Test func aHomoglyphNameIsJustLetters() {
        // Cyrillic Р and а: another person as far as the parser and the dedup key are concerned.
        let result = parse("Раul Hudson\npaul@example.com")
        #expect(result == ok("Раul Hudson", "paul@example.com"))
        #expect((try? result.get().name) != "Paul Hudson")
    }

    @Test func aHomoglyphAddressIsADifferentProspect() {
        let latin = try? parse("Paul\npaul@example.com").get()
        let cyrillic = try? parse("Paul\npаul@example.com").get()  // Cyrillic а
        #expect(cyrillic != nil)
        #expect(latin?.key != cyrillic?.key)
    }

    @Test func theNameIsCheckedBeforeTheEmail() {
        #expect(failure("\nnot an address") == .emptyName)
        #expect(failure("Paul\u{1B}\nnot an address") == .unsafeCharacters(field: "name", scalar: 0x1B))
    }

    @Test func aSecondLineThatIsNoAddressIsAnInvalidEmail() {
        #expect(parse("Paul Hudson\npaul.example.com") == badEmail("paul.example.com", .missingAt))
        #expect(parse("hello\nworld") == badEmail("world", .missingAt))
    }

    @Test func theInvalidAddressIsReportedTrimmedAndInNFC() {
        #expect(parse("Paul\n  pa ul@example.com ") == badEmail("pa ul@example.com", .invalidLocalCharacter(0x20)))
    }

    @Test func hundredsOfLinesAreCountedNotParsed() {
        let payload = "a@b.example\n".times(150)
        #expect(failure(payload) == .wrongLineCount(150))
    }

    @Test func theParserReportsTheAddressWithTheProblem() {
        #expect(parse("Paul\npaul@example.com.") == badEmail("paul@example.com.", .emptyDomainLabel))
        #expect(parse("Paul\npaul@bücher.example") == ok("Paul", "paul@bücher.example"))
    }
}
