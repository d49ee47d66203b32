import ProspectsCore
import Testing

@Suite struct PayloadLimitTests {
    @Test func theLimitIs2048Bytes() {
        #expect(PayloadParser.maxPayloadBytes == 2_048)
    }

    /// A vCard padded with a note to exactly `bytes` bytes.
    private func vCard(bytes: Int) -> String {
        let head = "BEGIN:VCARD\nFN:Paul\nEMAIL:paul@example.com\nNOTE:"
        let tail = "\nEND:VCARD"
        return head + "x".times(bytes - head.utf8.count - tail.utf8.count) + tail
    }

    @Test func aPayloadAtTheLimitIsParsed() throws {
        let payload = vCard(bytes: 2_048)
        #expect(payload.utf8.count == 2_048)
        #expect(parse(payload).map(\.email) == .success("paul@example.com"))
        #expect(
            try parse(payload).get().note?.utf8.count == 2_048
                - "BEGIN:VCARD\nFN:Paul\nEMAIL:paul@example.com\nNOTE:\nEND:VCARD".utf8.count)
    }

    @Test func oneByteMoreIsTooLong() {
        #expect(failure(vCard(bytes: 2_049)) == .payloadTooLong(bytes: 2_049, limit: 2_048))
    }

    @Test func theLargestQRCodeIsTooLong() {
        // 2,953 bytes: a version 40-L code in byte mode, full.
        #expect(failure(vCard(bytes: 2_953)) == .payloadTooLong(bytes: 2_953, limit: 2_048))
        let bytes = [UInt8](repeating: 0x41, count: 2_953)
        #expect(parser.parse(utf8: bytes) == .failure(.payloadTooLong(bytes: 2_953, limit: 2_048)))
    }

    @Test func theLimitCountsUTF8BytesNotCharacters() {
        let name = "ë".times(1_000)  // 1,000 characters, 2,000 bytes
        #expect(parse("\(name)\np@example.com") == ok(name, "p@example.com"))
        let longer = "ë".times(1_020)
        #expect(failure("\(longer)\np@example.com") == .payloadTooLong(bytes: 2_054, limit: 2_048))
    }

    @Test func theLimitComesBeforeEveryOtherCheck() {
        #expect(failure("\u{1B}".times(3_000)) == .payloadTooLong(bytes: 3_000, limit: 2_048))
    }

    @Test func bytesThatAreNotUTF8AreInvalidText() {
        #expect(parser.parse(utf8: Array("Paul\n".utf8) + [0xC3, 0x28]) == .failure(.invalidText))
        #expect(parser.parse(utf8: [0xFF, 0xFE, 0x50, 0x00]) == .failure(.invalidText))
    }

    @Test func bytesThatAreUTF8ParseLikeTheString() {
        let payload = "Zoë Martin\r\nzoe@example.com\r\n"
        #expect(parser.parse(utf8: Array(payload.utf8)) == parse(payload))
        #expect(parser.parse(utf8: [0xEF, 0xBB, 0xBF] + Array(payload.utf8)) == ok("Zoë Martin", "zoe@example.com"))
    }

    @Test func aNulByteIsUnsafeNotTheEndOfTheText() {
        let bytes = Array("Paul".utf8) + [0x00] + Array("Hudson\npaul@example.com".utf8)
        #expect(parser.parse(utf8: bytes) == .failure(.unsafeCharacters(field: "name", scalar: 0)))
    }
}
