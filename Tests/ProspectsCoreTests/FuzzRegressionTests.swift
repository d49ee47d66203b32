import ProspectsCore
import Testing

/// Inputs the fuzzers (`Fuzz/`, `Scripts/fuzz`) found, each kept as a test of the property it broke.
@Suite struct FuzzRegressionTests {
    let parser = PayloadParser()

    /// The property FuzzPayloadParser checks: a card written for an accepted prospect reads back as that same
    /// contact or not at all; as a MECARD or vCard (which escape), always exactly.
    func expectCardsReadBack(_ prospect: Prospect, sourceLocation: SourceLocation = #_sourceLocation) {
        for format in CardPayload.Format.allCases {
            switch parser.parse(CardPayload.make(prospect, format: format)) {
            case .success(let again):
                #expect(again.name == prospect.name, "\(format)", sourceLocation: sourceLocation)
                #expect(again.email == prospect.email, "\(format)", sourceLocation: sourceLocation)
            case .failure(let error):
                let card = CardPayload.make(prospect, format: format)
                let tooLong = card.utf8.count > PayloadParser.maxPayloadBytes
                #expect(format == .lines || tooLong, "\(format): \(error.message)", sourceLocation: sourceLocation)
            }
        }
    }

    /// crash-09c5ff32: a prospect just under the payload limit, written as a MECARD (its keywords and escapes
    /// added), is over the limit: refused as too long, which is right; it never reads back as someone else.
    @Test func aCardThatGrowsPastThePayloadLimitIsRefusedAsTooLong() throws {
        let name = String(repeating: "a;", count: 1_000) + "a"  // each ";" is escaped in the card
        let prospect = try parser.prospect(name: name, email: "paul@example.com").get()
        let card = CardPayload.make(prospect, format: .mecard)
        #expect(card.utf8.count > PayloadParser.maxPayloadBytes)
        guard case .failure(.payloadTooLong) = parser.parse(card) else {
            Issue.record("a MECARD over the limit was not refused as too long")
            return
        }
        expectCardsReadBack(prospect)
    }

    /// crash-625c059f: a `,` followed by a combining mark (U+0330) is one `Character`, so `CardPayload` did not
    /// escape it, while the MECARD parser, which splits scalars, took it for the family/given separator and
    /// swapped the name's halves.
    @Test func aCommaWithACombiningMarkIsEscapedInCards() throws {
        let payload = "P\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}Crru,\u{330}F&son <paul@examzple.com>"
        let prospect = try parser.parse(payload).get()
        #expect(prospect.name == "P\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}Crru,\u{330}F&son")
        expectCardsReadBack(prospect)
        expectCardsReadBack(Prospect(name: "Hudson,\u{301} Paul;\u{301} x:\u{301}\\\u{301}", email: "p@example.com"))
        #expect(CardPayload.make(prospect, format: .mecard).contains("\\,\u{330}"))
        #expect(CardPayload.make(prospect, format: .vcard).contains("\\,\u{330}"))
    }

    /// crash-c8822d0f: a vCard whose name came out as `TEL:+15550100 HudECARD:N:Hudson Pa!l`. Written as two lines
    /// it reads as a phone-number code: refused, never another contact; `encode` refuses that format for it.
    @Test func aNameThatStartsLikeAnotherCodeNeverReadsBackAsSomeoneElse() throws {
        let bytes: [UInt8] =
            Array(
                "BEGIN:VCARD\r\nVERSION:3.0\r\nN:HudECARD:N:Hudson,Pa!l;TEL:+15550100;EMAIL:paul@example.com;ORG:".utf8)
            + Array("Acme\\; vvvvvvvvvvv".utf8) + [0xFE, 0xFF, 0xFF, 0xD6]
            + Array("vvvvvvvvvvvvvvvvvvvnvvvvvvau, Hudson <pauson;Paul;;;\r\nFN".utf8) + [0xC3, 0xAF]
            + Array("aul Hudson\r\nORG:A".utf8) + [0x95, 0x92] + Array("e\r\n".utf8) + [0xD7]
            + Array("EL;TYPE=CELL:+1 5".utf8) + [0xAE]
            + Array("5 0100\r\nEMAIL;TYPE=INTERNET:paul@example.com\r\nEND:VCARD\r\n".utf8)
        for result in [parser.parse(utf8: bytes), parser.parse(String(decoding: bytes, as: UTF8.self))] {
            if case .success(let prospect) = result { expectCardsReadBack(prospect) }
        }
        let odd = Prospect(name: "TEL:+15550100 Hudson", email: "paul@example.com")
        expectCardsReadBack(odd)
        #expect(throws: ScanError.self) { try parser.parse(CardPayload.make(odd, format: .lines)).get() }
    }

    /// What the second finding led to: fields already split (an import row) are checked as fields, so a name
    /// holding a whole MECARD cannot replace the row's address with its own `EMAIL:`.
    @Test func fieldsAreNeverReparsedAsAPayload() throws {
        let smuggled = "MECARD:N:Eve;EMAIL:eve@evil.example;;"
        let prospect = try parser.prospect(name: smuggled, email: "paul@example.com").get()
        #expect(prospect.name == smuggled && prospect.email == "paul@example.com")
        #expect(try parser.prospect(name: "tel:+1 555", email: "t@example.com").get().name == "tel:+1 555")
        #expect(
            throws: ScanError.unsafeCharacters(field: "name", scalar: 0x1B),
            performing: { try parser.prospect(name: "\u{1B}]0;x", email: "p@example.com").get() })
        #expect(
            throws: ScanError.unsafeCharacters(field: "phone", scalar: 0x202E),
            performing: { try parser.prospect(name: "Paul", email: "p@example.com", phone: "\u{202E}1").get() })
        #expect(throws: ScanError.payloadTooLong(bytes: 2_049 + 14, limit: 2_048)) {
            try parser.prospect(name: String(repeating: "a", count: 2_049), email: "p@example.com ").get()
        }
        #expect(
            try parser.prospect(name: " Paul ", email: " p@example.com", organization: "  ").get()
                == Prospect(name: "Paul", email: "p@example.com"))
    }
}
