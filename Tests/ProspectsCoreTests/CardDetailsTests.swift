import Testing

@testable import ProspectsCore

/// What a card carries beyond the name and address: title, name parts, other addresses, a note.
@Suite struct CardDetailsTests {
    @Test func aVCardKeepsItsTitleNoteNamePartsAndOtherAddresses() {
        let payload = """
            BEGIN:VCARD
            VERSION:3.0
            N:Appleseed;Johnny;Q.;Dr.;Jr.
            FN:Dr. Johnny Q. Appleseed
            TITLE:Head of Orchards
            EMAIL;TYPE=work:johnny@example.com
            EMAIL;TYPE=home:JOHNNY@Example.com
            EMAIL;TYPE=home:not an address
            EMAIL;TYPE=home:apples@example.org
            NOTE:Met at the fair\\nwants a demo
            END:VCARD
            """
        #expect(
            parse(payload)
                == ok(
                    "Dr. Johnny Q. Appleseed", "johnny@example.com", title: "Head of Orchards",
                    parts: ["Appleseed", "Johnny", "Q.", "Dr.", "Jr."], otherEmails: ["apples@example.org"],
                    note: "Met at the fair\nwants a demo"))
    }

    @Test func aMECARDKeepsItsTitleNoteNamePartsAndOtherAddresses() {
        let payload =
            "MECARD:N:Appleseed,Johnny;TITLE:Grower;EMAIL:johnny@example.com;EMAIL:apples@example.org;NOTE:Fair;;"
        #expect(
            parse(payload)
                == ok(
                    "Johnny Appleseed", "johnny@example.com", title: "Grower", parts: ["Appleseed", "Johnny"],
                    otherEmails: ["apples@example.org"], note: "Fair"))
    }

    @Test func theNewFieldsAreTrimmedAndInNFC() {
        let payload = "MECARD:N:Hudson,Zoe\u{0308};TITLE:  Cafe\u{0301} owner ;EMAIL:zoe@example.com;NOTE:  hi  ;;"
        let prospect = try? parse(payload).get()
        #expect(prospect?.title == "Caf\u{E9} owner")
        #expect(prospect?.note == "hi")
        #expect(prospect?.nameParts == NameParts(family: "Hudson", given: "Zo\u{EB}"))
    }

    @Test func anUnsafeTitleOrNoteIsRefusedAsAnOrganisationIs() throws {
        #expect(
            failure("MECARD:N:Paul;EMAIL:paul@example.com;TITLE:Boss\u{202E};;")
                == .unsafeCharacters(field: "title", scalar: 0x202E))
        #expect(
            failure("BEGIN:VCARD\nFN:Paul\nEMAIL:paul@example.com\nNOTE:a\u{0007}b\nEND:VCARD")
                == .unsafeCharacters(field: "note", scalar: 0x07))
        // A note may hold line breaks and tabs.
        #expect(
            try parse("BEGIN:VCARD\nFN:Paul\nEMAIL:paul@example.com\nNOTE:a\\n\tb\nEND:VCARD").get().note == "a\n\tb")
    }

    /// Fields split apart (an imported row's phone columns): other phones are cleaned as the phone is, blank,
    /// unsafe and repeated ones left out; with no phone, the first of them is the phone.
    @Test func otherPhonesAreCleanedAndTheFirstStandsInForAMissingPhone() throws {
        let parser = PayloadParser()
        let several = try parser.prospect(
            name: "Ann", email: "ann@example.com", phone: " +1 555 0100 ",
            otherPhones: ["", "+1 555 0100", "+1\u{202E}555", " +1 555 0101", "+1 555 0101"]
        ).get()
        #expect(several.phone == "+1 555 0100" && several.otherPhones == ["+1 555 0101"])
        let noPhone = try parser.prospect(
            name: "Ann", email: "ann@example.com", otherPhones: ["  ", "+1 555 0102", "+1 555 0103"]
        ).get()
        #expect(noPhone.phone == "+1 555 0102" && noPhone.otherPhones == ["+1 555 0103"])
        #expect(try parser.prospect(name: "Ann", email: "ann@example.com").get().otherPhones.isEmpty)
    }

    @Test func aCardWithoutTheNewFieldsHasNone() {
        let prospect = try? parse("Paul Hudson\npaul@example.com").get()
        #expect(prospect?.title == nil && prospect?.nameParts == nil && prospect?.note == nil)
        #expect(prospect?.otherEmails == [])
    }
}
