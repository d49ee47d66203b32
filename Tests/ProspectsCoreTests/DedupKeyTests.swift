import ProspectsCore
import Testing

@Suite struct DedupKeyTests {
    @Test func caseIsFolded() {
        #expect(DedupKey.make("Paul@Example.COM") == "paul@example.com")
        #expect(DedupKey.make("ZOË@BÜCHER.EXAMPLE") == "zoë@bücher.example")
    }

    @Test func composedAndDecomposedFormsCollide() {
        #expect(DedupKey.make("zo\u{00EB}@example.com") == DedupKey.make("zoe\u{0308}@example.com"))
        #expect(DedupKey.make("ZOE\u{0308}@example.com") == "zo\u{00EB}@example.com")
    }

    @Test func surroundingWhiteSpaceIsTrimmed() {
        #expect(DedupKey.make("  paul@example.com\r\n") == "paul@example.com")
    }

    @Test func aProspectsKeyIsItsAddressKey() {
        let prospect = Prospect(name: "Paul", email: "Paul@Example.com")
        #expect(prospect.key == "paul@example.com")
        let again = try? parse("PAUL HUDSON\n PAUL@EXAMPLE.COM").get()
        #expect(again?.key == prospect.key)
    }

    @Test func differentScriptsStayDifferent() {
        #expect(DedupKey.make("paul@example.com") != DedupKey.make("pаul@example.com"))  // Cyrillic а
    }
}
