import ProspectsCore
import Testing

@Suite struct MECardTests {
    @Test func aFullCard() {
        let payload =
            "MECARD:N:Hudson,Paul;TEL:+44 20 7946 0000;EMAIL:paul@hackingwithswift.com;ORG:Hacking with Swift;;"
        #expect(
            parse(payload)
                == ok(
                    "Paul Hudson", "paul@hackingwithswift.com", phone: "+44 20 7946 0000",
                    organization: "Hacking with Swift", parts: ["Hudson", "Paul"]))
        #expect(format(payload) == .mecard)
    }

    @Test(arguments: ["mecard:N:Hudson,Paul;EMAIL:paul@example.com;;", "MeCard:n:Hudson,Paul;email:paul@example.com;;"])
    func prefixAndKeysAreCaseInsensitive(payload: String) {
        #expect(parse(payload) == ok("Paul Hudson", "paul@example.com", parts: ["Hudson", "Paul"]))
    }

    @Test func aNameWithoutCommaIsTheWholeName() {
        #expect(parse("MECARD:N:Paul Hudson;EMAIL:paul@example.com;;") == ok("Paul Hudson", "paul@example.com"))
        #expect(
            parse("MECARD:N:Hudson,;EMAIL:paul@example.com;;")
                == ok("Hudson", "paul@example.com", parts: ["Hudson", ""]))
        #expect(
            parse("MECARD:N:,Paul;EMAIL:paul@example.com;;") == ok("Paul", "paul@example.com", parts: ["", "Paul"]))
    }

    @Test func escapesAreUndone() {
        let payload = #"MECARD:N:O\;Brien\, Jr.,Ann\\Marie;EMAIL:ann@example.com;ORG:A\:B\;C;;"#
        #expect(
            parse(payload)
                == ok(
                    #"Ann\Marie O;Brien, Jr."#, "ann@example.com", organization: "A:B;C",
                    parts: ["O;Brien, Jr.", #"Ann\Marie"#]))
    }

    @Test func anEscapedSemicolonDoesNotEndTheNote() {
        let payload = #"MECARD:N:Paul;NOTE:call me\;EMAIL:x@evil.test;EMAIL:paul@example.com;;"#
        #expect(parse(payload) == ok("Paul", "paul@example.com", note: "call me;EMAIL:x@evil.test"))
    }

    @Test func aKeyInsideAValueIsNotAField() {
        #expect(failure("MECARD:N:Paul;NOTE:EMAIL:x@evil.test;;") == .missingEmail)
        #expect(failure("MECARD:N:Paul;NOTE:hi EMAIL:x@evil.test;;") == .missingEmail)
        #expect(failure("MECARD:N:Paul\\;EMAIL:x@evil.test;;") == .missingEmail)
    }

    @Test func nothingAfterTheTerminatorIsRead() {
        #expect(failure("MECARD:N:Paul;;EMAIL:x@evil.test;") == .missingEmail)
    }

    @Test func theTerminatorMayBeMissing() {
        #expect(parse("MECARD:N:Paul;EMAIL:paul@example.com") == ok("Paul", "paul@example.com"))
        #expect(parse("MECARD:N:Paul;EMAIL:paul@example.com;") == ok("Paul", "paul@example.com"))
    }

    @Test func theFirstNonBlankEmailWins() {
        let payload = "MECARD:N:Paul;EMAIL:;EMAIL:first@example.com;EMAIL:second@example.com;;"
        #expect(parse(payload) == ok("Paul", "first@example.com", otherEmails: ["second@example.com"]))
    }

    @Test func severalPhonesAreAllKept() {
        let payload = "MECARD:N:Paul;TEL:;TEL:+1 555 0100;TEL:+1 555 0101;TEL:+1 555 0100;EMAIL:paul@example.com;;"
        #expect(
            parse(payload) == ok("Paul", "paul@example.com", phone: "+1 555 0100", otherPhones: ["+1 555 0101"]))
    }

    @Test func theFirstEmailWinsEvenWhenInvalid() {
        let payload = "MECARD:N:Paul;EMAIL:nope;EMAIL:second@example.com;;"
        #expect(parse(payload) == badEmail("nope", .missingAt))
    }

    @Test func theNicknameIsIgnored() {
        #expect(failure("MECARD:NICKNAME:Pauly;EMAIL:paul@example.com;;") == .emptyName)
        let payload = "MECARD:NICKNAME:Pauly;N:Hudson,Paul;EMAIL:paul@example.com;;"
        #expect(parse(payload) == ok("Paul Hudson", "paul@example.com", parts: ["Hudson", "Paul"]))
    }

    @Test func fieldsMayBeOnSeparateLines() {
        let payload = "MECARD:\r\nN:Hudson,Paul;\r\nEMAIL:paul@example.com;\r\n;"
        #expect(parse(payload) == ok("Paul Hudson", "paul@example.com", parts: ["Hudson", "Paul"]))
    }

    @Test func missingParts() {
        #expect(failure("MECARD:EMAIL:paul@example.com;;") == .emptyName)
        #expect(failure("MECARD:N:;EMAIL:paul@example.com;;") == .emptyName)
        #expect(failure("MECARD:N:Hudson,Paul;TEL:555;;") == .missingEmail)
        #expect(failure("MECARD:") == .emptyName)
        #expect(failure("MECARD:;;") == .emptyName)
    }

    @Test func valuesAreNormalised() {
        #expect(
            parse("MECARD:N: Hudson , Zoe\u{0308} ;EMAIL: zoe@example.com ;;")
                == ok("Zoë Hudson", "zoe@example.com", parts: ["Hudson", "Zoë"]))
    }
}
