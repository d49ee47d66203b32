import ProspectsCore
import Testing

@Suite struct ScanErrorTests {
    @Test func payloadErrorsHaveKindsAndMessages() {
        #expect(ScanError.wrongLineCount(3).kind == "wrongLineCount")
        #expect(ScanError.wrongLineCount(3).message == "expected two lines (name, then email address), found 3")
        #expect(ScanError.payloadTooLong(bytes: 2_953, limit: 2_048).message.contains("2953"))
        #expect(ScanError.emptyName.description == ScanError.emptyName.message)
    }

    @Test func anInvalidEmailMessageEscapesTheAddress() {
        let error = ScanError.invalidEmail(address: "a\u{1B}[2Jb", reason: .missingAt)
        #expect(error.message == #""a\u{1B}[2Jb" is not a valid email address: it has no @"#)
    }

    @Test func everyParserFailureHasAMessageFreeOfControls() {
        let payloads = [
            "\u{1B}]52;c;x\u{7}\np@example.com", "Paul\n\u{1B}[2J@example.com", "\u{1B}[2J", "https://\u{1B}[2J/",
            "Paul\npa\u{1B}ul", "BEGIN:VCARD\nFN;CHARSET=\u{1B}[2J:x\nEND:VCARD",
        ]
        for payload in payloads {
            let message = failure(payload)?.message ?? ""
            #expect(!message.isEmpty)
            #expect(SafeText.firstUnsafe(in: message) == nil, "\(SafeText.escaped(message))")
        }
    }
}
