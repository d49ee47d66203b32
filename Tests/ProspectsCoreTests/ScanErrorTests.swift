import ProspectsCore
import Testing

@Suite struct ScanErrorTests {
    @Test func payloadErrorsHaveKindsAndMessages() {
        #expect(ScanError.wrongLineCount(3).kind == "wrongLineCount")
        #expect(ScanError.wrongLineCount(3).message == "expected two lines (name, then email address), found 3")
        #expect(ScanError.payloadTooLong(bytes: 2_953, limit: 2_048).message.contains("2953"))
        #expect(ScanError.emptyName.description == ScanError.emptyName.message)
    }

    @Test func aPictureOverThePixelLimitSaysItsSizeAndTheLimitAndNamesNoOption() {
        let large = ScanError.imageTooLarge(width: 10_000, height: 10_800, limit: 50_000_000)
        #expect(large.message == "a 10,000 × 10,800 picture (108 MP) is over the 50 MP limit")
        #expect(large.pixelLimitNeeded == 108_000_000)
        // Megapixels that would round to the limit's own figure are said in pixels.
        let barely = ScanError.imageTooLarge(width: 7_072, height: 7_071, limit: 50_000_000)
        #expect(barely.message == "a 7,072 × 7,071 picture (50,006,112 pixels) is over the limit of 50,000,000 pixels")
        let small = ScanError.imageTooLarge(width: 203, height: 203, limit: 1_000)
        #expect(small.message == "a 203 × 203 picture (41,209 pixels) is over the limit of 1,000 pixels")
        #expect(ScanError.imageTooLarge(width: 4_032, height: 3_024, limit: 10_000_000).message.contains("(12.2 MP)"))
        #expect(ScanError.noCodeFound.pixelLimitNeeded == nil)
    }

    @Test func theFormatsPeopleAreToldOfIncludeAVIF() {
        #expect(
            ScanError.unsupportedImage(kind: "a text file").message
                == "a text file; Prospects reads PNG, JPEG, HEIC, AVIF and WebP")
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
