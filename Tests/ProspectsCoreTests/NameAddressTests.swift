import ProspectsCore
import Testing

/// `Name <email>` on one line, as mail headers write it.
@Suite struct NameAddressTests {
    @Test func plainName() {
        #expect(parse("Paul Hudson <paul@example.com>") == ok("Paul Hudson", "paul@example.com"))
        #expect(format("Paul Hudson <paul@example.com>") == .nameAddress)
        #expect(parse("  Paul Hudson<paul@example.com>  \n") == ok("Paul Hudson", "paul@example.com"))
    }

    @Test func quotedName() {
        #expect(parse(#""Hudson, Paul" <paul@example.com>"#) == ok("Hudson, Paul", "paul@example.com"))
        #expect(
            parse(#""Paul \"The Swift\" Hudson" <paul@example.com>"#)
                == ok(#"Paul "The Swift" Hudson"#, "paul@example.com"))
        #expect(parse(#""Paul <Boss>" <paul@example.com>"#) == ok("Paul <Boss>", "paul@example.com"))
    }

    @Test func anEmptyNameSlotIsAnEmptyName() {
        #expect(failure("<paul@example.com>") == .emptyName)
        #expect(failure(#""" <paul@example.com>"#) == .emptyName)
    }

    @Test func theAddressIsValidated() {
        #expect(parse("Paul <paul@localhost>") == badEmail("paul@localhost", .domainWithoutDot))
        #expect(failure("Paul <>") == .missingEmail)
    }

    @Test(arguments: [
        "Paul <paul@example.com> extra",  // does not end with >
        "Paul <a> <paul@example.com>",  // angle brackets in an unquoted name
        #""Paul <paul@example.com>"#,  // the quote never closes
        #""Paul" Hudson <paul@example.com>"#,  // text after the closing quote
    ])
    func otherShapesAreNotThisForm(payload: String) {
        #expect(failure(payload) == .wrongLineCount(1))
    }

    @Test func onTwoLinesItIsTheTwoLineForm() {
        #expect(parse("Paul Hudson <paul@example.com>\nx") == badEmail("x", .missingAt))
    }
}
