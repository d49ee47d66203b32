import ProspectsCore
import Testing

@Suite struct VCardTests {
    @Test func vCard30() {
        let payload = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Hudson;Paul;;;\r
            FN:Paul Hudson\r
            ORG:Hacking with Swift;Training\r
            TEL;TYPE=work,voice:+44 20 7946 0000\r
            EMAIL;TYPE=INTERNET;TYPE=WORK:paul@hackingwithswift.com\r
            END:VCARD\r

            """
        #expect(
            parse(payload)
                == ok(
                    "Paul Hudson", "paul@hackingwithswift.com", phone: "+44 20 7946 0000",
                    organization: "Hacking with Swift", parts: ["Hudson", "Paul", "", "", ""]))
        #expect(format(payload) == .vcard)
    }

    @Test func vCard40() {
        let payload = """
            BEGIN:VCARD
            VERSION:4.0
            FN:Zoë Martin
            EMAIL;TYPE="work,internet";PREF=1:zoe@example.com
            TEL;VALUE=uri;TYPE="voice,cell":tel:+1-555-0100
            END:VCARD
            """
        #expect(parse(payload) == ok("Zoë Martin", "zoe@example.com", phone: "+1-555-0100"))
    }

    @Test func vCard21() {
        let payload = "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Hudson;Paul\r\nEMAIL;INTERNET;PREF:paul@example.com\r\nEND:VCARD"
        #expect(parse(payload) == ok("Paul Hudson", "paul@example.com", parts: ["Hudson", "Paul"]))
    }

    @Test func namesAndKeywordsAreCaseInsensitive() {
        let payload = "begin:vcard\nfn:Paul Hudson\nEmail;type=work:paul@example.com\nend:VCard"
        #expect(parse(payload) == ok("Paul Hudson", "paul@example.com"))
    }

    @Test func groupsArePartOfNoName() {
        let payload =
            "BEGIN:VCARD\nFN:Paul\nitem1.EMAIL;type=INTERNET:paul@example.com\nitem1.X-ABLabel:Work\nEND:VCARD"
        #expect(parse(payload) == ok("Paul", "paul@example.com"))
    }

    @Test func theNameComesFromNWhenThereIsNoFN() {
        let payload = "BEGIN:VCARD\nN:Hudson;Paul;James;Dr.;PhD\nEMAIL:paul@example.com\nEND:VCARD"
        #expect(
            parse(payload) == ok("Paul Hudson", "paul@example.com", parts: ["Hudson", "Paul", "James", "Dr.", "PhD"]))
        let blankFN = "BEGIN:VCARD\nFN: \nN:Hudson;Paul\nEMAIL:paul@example.com\nEND:VCARD"
        #expect(parse(blankFN) == ok("Paul Hudson", "paul@example.com", parts: ["Hudson", "Paul"]))
        let familyOnly = "BEGIN:VCARD\nN:Hudson\nEMAIL:paul@example.com\nEND:VCARD"
        #expect(parse(familyOnly) == ok("Hudson", "paul@example.com", parts: ["Hudson"]))
    }

    @Test func fnWinsOverN() {
        let payload = "BEGIN:VCARD\nN:Hudson;Paul\nFN:Dr Paul Hudson\nEMAIL:paul@example.com\nEND:VCARD"
        #expect(parse(payload) == ok("Dr Paul Hudson", "paul@example.com", parts: ["Hudson", "Paul"]))
    }

    @Test func escapesAreUndone() {
        let payload = #"""
            BEGIN:VCARD
            N:O\;Brien;Ann\,Marie
            FN:Ann\, Marie O\;Brien \\ Jr
            ORG:Smith\, Jones\; Partners;Legal
            EMAIL:ann@example.com
            END:VCARD
            """#
        #expect(
            parse(payload)
                == ok(
                    #"Ann, Marie O;Brien \ Jr"#, "ann@example.com", organization: "Smith, Jones; Partners",
                    parts: ["O;Brien", "Ann,Marie"]))
    }

    @Test func nComponentsWithListsAndEscapes() {
        let payload = #"BEGIN:VCARD\#nN:O\;Brien;Ann,Marie\, Jr\#nEMAIL:ann@example.com\#nEND:VCARD"#
        #expect(parse(payload) == ok("Ann Marie, Jr O;Brien", "ann@example.com", parts: ["O;Brien", "Ann Marie, Jr"]))
    }

    @Test func foldedLinesAreUnfolded() {
        let payload = "BEGIN:VCARD\r\nFN:Paul\r\n  Hudson\r\nEMAIL:paul@exam\r\n\tple.com\nTEL:555\n 0100\r\nEND:VCARD"
        #expect(parse(payload) == ok("Paul Hudson", "paul@example.com", phone: "5550100"))
    }

    @Test func aFoldInsideAUTF8SequenceIsUnfoldedOnTheBytes() {
        // "Zoë" folded between the two bytes of ë (C3 AB): only valid UTF-8 once unfolded.
        var bytes = Array("BEGIN:VCARD\r\nFN:Zo".utf8) + [0xC3, 0x0D, 0x0A, 0x20, 0xAB]
        bytes += Array(" Martin\r\nEMAIL:zoe@example.com\r\nEND:VCARD\r\n".utf8)
        #expect(parser.parse(utf8: bytes) == ok("Zoë Martin", "zoe@example.com"))
        #expect((try? parser.parseDetailed(utf8: bytes).get().format) == .vcard)
        // LF-only folds, and a tab as the fold blank.
        var lf = Array("BEGIN:VCARD\nFN:Zo".utf8) + [0xC3, 0x0A, 0x09, 0xAB]
        lf += Array("\nEMAIL:zoe@example.com\nEND:VCARD".utf8)
        #expect(parser.parse(utf8: lf) == ok("Zoë", "zoe@example.com"))
    }

    @Test func theFirstNonBlankEmailWins() {
        let payload = """
            BEGIN:VCARD
            FN:Paul
            EMAIL;TYPE=home:
            EMAIL;TYPE=home:home@example.com
            EMAIL;TYPE=work;PREF=1:work@example.com
            END:VCARD
            """
        #expect(parse(payload) == ok("Paul", "home@example.com", otherEmails: ["work@example.com"]))
    }

    /// Every `TEL` is the lead's: the first non-blank is the phone, the others its other phones in order, a
    /// repeated one once, a `tel:` URI's scheme dropped.
    @Test func severalPhonesAreAllKept() {
        let payload = """
            BEGIN:VCARD
            VERSION:4.0
            FN:Paul
            TEL;TYPE=work:
            TEL;TYPE=work:+1 555 0100
            TEL;TYPE=cell;VALUE=uri:tel:+1-555-0101
            TEL;TYPE=home:+1 555 0100
            item2.TEL:+44 20 7946 0000
            EMAIL:paul@example.com
            END:VCARD
            """
        #expect(
            parse(payload)
                == ok(
                    "Paul", "paul@example.com", phone: "+1 555 0100", otherPhones: ["+1-555-0101", "+44 20 7946 0000"])
        )
    }

    @Test func quotedParameterValuesMayHoldColonsAndSemicolons() {
        let payload = "BEGIN:VCARD\nFN:Paul\nEMAIL;X-LABEL=\"a:b;c\":paul@example.com\nEND:VCARD"
        #expect(parse(payload) == ok("Paul", "paul@example.com"))
    }

    @Test func quotedPrintableUTF8() {
        let payload = """
            BEGIN:VCARD\r
            VERSION:2.1\r
            N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Bj=C3=B6rk;Zo=C3=AB\r
            FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Zo=C3=AB Bj=C3=B6rk=20=\r
            Gu=C3=B0mundsd=C3=B3ttir\r
            EMAIL;INTERNET:zoe@example.is\r
            END:VCARD
            """
        #expect(parse(payload) == ok("Zoë Björk Guðmundsdóttir", "zoe@example.is", parts: ["Björk", "Zoë"]))
    }

    @Test func quotedPrintableAsABareParameterAndLatin1() {
        let payload =
            "BEGIN:VCARD\nFN;QUOTED-PRINTABLE;CHARSET=ISO-8859-1:J=FCrgen M=FCller\nEMAIL:j@example.de\nEND:VCARD"
        #expect(parse(payload) == ok("Jürgen Müller", "j@example.de"))
    }

    @Test func quotedPrintableThatIsNotUTF8IsInvalidText() {
        let payload = "BEGIN:VCARD\nFN;ENCODING=QUOTED-PRINTABLE:J=FCrgen\nEMAIL:j@example.de\nEND:VCARD"
        #expect(failure(payload) == .invalidText)
    }

    @Test func anUnknownCharsetIsRefusedClearly() {
        let payload = "BEGIN:VCARD\nFN;CHARSET=Shift_JIS:x\nEMAIL:j@example.jp\nEND:VCARD"
        #expect(failure(payload) == .unsupportedPayload(summary: "a vCard written in the \"SHIFT_JIS\" character set"))
    }

    @Test func anUnusedPropertyInAnOddEncodingDoesNotMatter() {
        let payload =
            "BEGIN:VCARD\nFN:Paul\nNOTE;CHARSET=Shift_JIS:x\nPHOTO;ENCODING=b;TYPE=JPEG:!!!\nEMAIL:p@example.com\nEND:VCARD"
        #expect(parse(payload) == ok("Paul", "p@example.com"))
    }

    @Test func base64Values() {
        let payload = "BEGIN:VCARD\nFN;ENCODING=b:Wm/DqyBNYXJ0aW4=\nEMAIL:zoe@example.com\nEND:VCARD"
        #expect(parse(payload) == ok("Zoë Martin", "zoe@example.com"))
    }

    @Test func aNoteCannotInjectAnEmail() {
        let payload = "BEGIN:VCARD\nFN:Paul\nNOTE:hi\\nEMAIL:x@evil.test\nEMAIL:paul@example.com\nEND:VCARD"
        #expect(parse(payload) == ok("Paul", "paul@example.com", note: "hi\nEMAIL:x@evil.test"))
        let only = "BEGIN:VCARD\nFN:Paul\nNOTE:EMAIL:x@evil.test\nEND:VCARD"
        #expect(failure(only) == .missingEmail)
    }

    @Test func onlyTheFirstCardIsRead() {
        let payload = "BEGIN:VCARD\nFN:Paul\nEND:VCARD\nBEGIN:VCARD\nFN:Eve\nEMAIL:eve@evil.test\nEND:VCARD"
        #expect(failure(payload) == .missingEmail)
    }

    @Test func aNestedCardIsNotRead() {
        let payload = """
            BEGIN:VCARD
            FN:Paul
            AGENT:BEGIN:VCARD
            BEGIN:VCARD
            FN:Agent
            EMAIL:agent@example.com
            END:VCARD
            EMAIL:paul@example.com
            END:VCARD
            """
        #expect(parse(payload) == ok("Paul", "paul@example.com"))
    }

    @Test func aMissingEndIsTolerated() {
        #expect(parse("BEGIN:VCARD\nFN:Paul\nEMAIL:paul@example.com") == ok("Paul", "paul@example.com"))
    }

    @Test func missingParts() {
        #expect(failure("BEGIN:VCARD\nEMAIL:paul@example.com\nEND:VCARD") == .emptyName)
        #expect(failure("BEGIN:VCARD\nFN:\nN:;;;;\nEMAIL:paul@example.com\nEND:VCARD") == .emptyName)
        #expect(failure("BEGIN:VCARD\nFN:Paul\nTEL:555\nEND:VCARD") == .missingEmail)
        #expect(failure("BEGIN:VCARD\nEND:VCARD") == .emptyName)
        #expect(failure("BEGIN:VCARD") == .emptyName)
        #expect(parse("BEGIN:VCARD\nFN:Paul\nEMAIL:nope\nEND:VCARD") == badEmail("nope", .missingAt))
    }

    @Test func linesWithoutAColonAreSkipped() {
        #expect(parse("BEGIN:VCARD\ngarbage\nFN:Paul\nEMAIL:p@example.com\nEND:VCARD") == ok("Paul", "p@example.com"))
    }

    @Test func somethingThatOnlyStartsLikeAVCardIsNotOne() {
        #expect(failure("BEGIN:VCARDS") == .unsupportedPayload(summary: #"text "BEGIN:VCARDS""#))
        #expect(parse("BEGIN:VCARDS\nPaul") == badEmail("Paul", .missingAt))  // two lines: the contract
        #expect(failure("BEGIN:VEVENT\nSUMMARY:Party\nEND:VEVENT") == .unsupportedPayload(summary: "a calendar event"))
    }

    @Test func invalidUTF8BytesAreInvalidText() {
        let bytes = Array("BEGIN:VCARD\nFN:".utf8) + [0xFF] + Array("\nEMAIL:p@example.com\nEND:VCARD".utf8)
        #expect(parser.parse(utf8: bytes) == .failure(.invalidText))
    }

    @Test func leadingWhiteSpaceAndABOMAreSkipped() {
        #expect(
            parse("\u{FEFF}\r\n BEGIN:VCARD\nFN:Paul\nEMAIL:p@example.com\nEND:VCARD") == ok("Paul", "p@example.com"))
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("BEGIN:VCARD\nFN:Paul\nEMAIL:p@example.com\nEND:VCARD".utf8)
        #expect(parser.parse(utf8: bytes) == ok("Paul", "p@example.com"))
    }
}
