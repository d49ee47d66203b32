import Foundation
import ProspectsCore
import ProspectsExchange
import Testing

/// `.vcf` files of many cards, as phones and address books export them.
@Suite struct VCardFileReaderTests {
    static let file =
        [
            "BEGIN:VCARD", "VERSION:2.1", "N:Hudson;Paul", "EMAIL;INTERNET:paul@example.com",
            "PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQSkZJRgABAQ", " AAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8U",
            "",
            "TEL;CELL:+1 555 0100", "END:VCARD",
            "some text a program left between cards",
            "begin:vcard", "VERSION:3.0", "FN:Zoë Martin", "TITLE:CTO", "EMAIL:zoe@example.com", "EMAIL:z@example.org",
            "item1.LOGO;VALUE=uri:https://example.com/logo.png", "END:VCARD",
            "BEGIN:VCARD", "VERSION:4.0", "FN:No Address", "END:VCARD",
        ].joined(separator: "\r\n") + "\r\n"

    @Test func everyCardIsReadWithoutItsPictures() throws {
        let folder = try TemporaryFolder()
        let reader = try VCardFileReader(path: try folder.write("cards.vcf", Self.file))
        var records: [ImportRecord] = []
        while let record = try reader.next() { records.append(record) }
        #expect(records.map(\.line) == [1, 11, 19])
        let cards = records.map { String(decoding: $0.card ?? [], as: UTF8.self) }
        #expect(!cards[0].contains("PHOTO") && !cards[0].contains("AAAQ") && cards[0].contains("TEL;CELL:+1 555 0100"))
        #expect(!cards[1].contains("LOGO"))
        let parser = PayloadParser()
        #expect(
            try parser.parse(utf8: records[0].card ?? []).get()
                == Prospect(
                    name: "Paul Hudson", email: "paul@example.com", phone: "+1 555 0100",
                    nameParts: NameParts(family: "Hudson", given: "Paul")))
        let zoe = try parser.parse(utf8: records[1].card ?? []).get()
        #expect(zoe.title == "CTO" && zoe.otherEmails == ["z@example.org"])
        #expect(parser.parse(utf8: records[2].card ?? []) == .failure(.missingEmail))
    }

    @Test func aFileThatIsNoVCardIsRefusedAndTheFormatIsToldByContentOrName() throws {
        let folder = try TemporaryFolder()
        #expect(throws: ImportError.self) { try VCardFileReader(path: try folder.write("list.vcf", "name,email\n")) }
        #expect(ImportFormat(content: Array("\u{FEFF}\r\n  BEGIN:VCARD\r\nVERSION:3.0".utf8)) == .vcard)
        #expect(ImportFormat(content: Array("name,email\n".utf8)) == nil)
        #expect(ImportFormat(fileName: "Contacts.VCF") == .vcard)
        #expect(ImportFormat(rawValue: "vcard") == .vcard)
    }

    @Test func aCardTooLongIsMalformedAndTheNextOneIsRead() throws {
        let folder = try TemporaryFolder()
        let long = "BEGIN:VCARD\nFN:Long\nNOTE:" + String(repeating: "x", count: 300) + "\nEND:VCARD\n"
        let short = "BEGIN:VCARD\nFN:Short\nEMAIL:s@example.com\nEND:VCARD\n"
        let reader = try VCardFileReader(path: try folder.write("cards.vcf", long + short), maxCardBytes: 200)
        #expect(
            throws: ImportError.malformed(line: 1, reason: "the card is longer than 200 bytes without its pictures")
        ) {
            try reader.next()
        }
        #expect(try reader.next()?.line == 5)
        #expect(try reader.next() == nil)
    }
}
