import ProspectsCore
import Testing

/// `mailto:`, `MATMSG:` and an address alone carry an address but no name: the local part, as written, becomes the
/// name.
@Suite struct NamelessFormatTests {
    @Test func anAddressAlone() {
        #expect(parse(" Paul.Hudson@Example.com\n") == ok("Paul.Hudson", "Paul.Hudson@Example.com"))
        #expect(format("paul.hudson@example.com") == .address)
        // Its problems are the address's own, not a count of lines.
        #expect(parse("paul@localhost") == badEmail("paul@localhost", .domainWithoutDot))
        #expect(failure("paul@example.com extra") == .wrongLineCount(1))
    }

    @Test func mailto() {
        #expect(parse("mailto:paul.hudson@example.com") == ok("paul.hudson", "paul.hudson@example.com"))
        #expect(format("mailto:paul.hudson@example.com") == .mailto)
    }

    @Test(arguments: ["MAILTO:Paul@Example.com", "MailTo:Paul@Example.com", "  mailto:Paul@Example.com\n"])
    func theSchemeIsCaseInsensitiveAndTheAddressKeepsItsCase(payload: String) {
        #expect(parse(payload) == ok("Paul", "Paul@Example.com"))
    }

    @Test func theQueryIsIgnored() {
        let payload = "mailto:paul@example.com?subject=Hello%20there&body=Nice%20to%20meet%20you&cc=eve@evil.test"
        #expect(parse(payload) == ok("paul", "paul@example.com"))
    }

    @Test func percentEscapesAreDecodedAsUTF8() {
        #expect(parse("mailto:paul%40example.com") == ok("paul", "paul@example.com"))
        #expect(parse("mailto:j%C3%BCrgen@b%C3%BCcher.example") == ok("jürgen", "jürgen@bücher.example"))
        #expect(parse("mailto:100%25@example.com") == ok("100%", "100%@example.com"))
        #expect(parse("mailto:a%zz@example.com") == ok("a%zz", "a%zz@example.com"))  // not an escape: kept
    }

    @Test func decodedBytesThatAreNotUTF8AreInvalidText() {
        #expect(failure("mailto:j%FCrgen@example.de") == .invalidText)
    }

    @Test func theFirstAddressOfAListIsUsed() {
        #expect(parse("mailto:first@example.com,second@example.com") == ok("first", "first@example.com"))
        #expect(parse("mailto:,first@example.com") == ok("first", "first@example.com"))
        // An encoded comma is inside the address, not a separator, and a comma is not allowed there.
        #expect(parse("mailto:a%2Cb@example.com") == badEmail("a,b@example.com", .invalidLocalCharacter(0x2C)))
    }

    @Test func anAddressInTheToField() {
        #expect(parse("mailto:?to=paul@example.com&subject=Hi") == ok("paul", "paul@example.com"))
        #expect(parse("mailto:?subject=Hi&TO=a@example.com,b@example.com") == ok("a", "a@example.com"))
    }

    @Test func aNameInsideTheLinkIsUsed() {
        #expect(parse("mailto:Paul%20Hudson%20%3Cpaul@example.com%3E") == ok("Paul Hudson", "paul@example.com"))
    }

    @Test func slashesAfterTheSchemeAreDropped() {
        #expect(parse("mailto://paul@example.com") == ok("paul", "paul@example.com"))
    }

    @Test func missingOrBadAddresses() {
        #expect(failure("mailto:") == .missingEmail)
        #expect(failure("mailto:?subject=Hi") == .missingEmail)
        #expect(parse("mailto:paul") == badEmail("paul", .missingAt))
        #expect(parse("mailto:.paul@example.com") == badEmail(".paul@example.com", .badDots))
    }

    @Test func matmsg() {
        let payload = "MATMSG:TO:paul.hudson@example.com;SUB:Hello;BODY:Nice to meet you;;"
        #expect(parse(payload) == ok("paul.hudson", "paul.hudson@example.com"))
        #expect(format(payload) == .matmsg)
    }

    @Test func matmsgPrefixAndKeysAreCaseInsensitive() {
        #expect(parse("matmsg:to:Paul@Example.com;;") == ok("Paul", "Paul@Example.com"))
    }

    @Test func matmsgBodyCannotInjectAnAddress() {
        #expect(parse(#"MATMSG:SUB:x\;TO:eve@evil.test;TO:paul@example.com;;"#) == ok("paul", "paul@example.com"))
        #expect(failure("MATMSG:BODY:TO:eve@evil.test;;") == .missingEmail)
    }

    @Test func matmsgFirstOfAList() {
        #expect(parse("MATMSG:TO:a@example.com,b@example.com;;") == ok("a", "a@example.com"))
    }

    @Test func matmsgWithoutAddress() {
        #expect(failure("MATMSG:SUB:Hello;BODY:Hi;;") == .missingEmail)
        #expect(failure("MATMSG:TO:;;") == .missingEmail)
    }
}
