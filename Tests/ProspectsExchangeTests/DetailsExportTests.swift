import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import Testing

/// What export writes of a card's details and the team's work: title, name parts, other addresses, rating, tags,
/// notes; and Google's several-addresses cells on import.
@Suite struct DetailsExportTests {
    static let notes = [
        ProspectNote(writtenAt: Fixtures.created, author: "ana", text: "Met at the fair\nwants a demo"),
        ProspectNote(writtenAt: Fixtures.seen, author: "bo", text: "sent; deck"),
    ]

    static func johnny() -> StoredProspect {
        var stored = Fixtures.stored(7, "Dr. Johnny Q. Appleseed Jr.", "johnny@example.com")
        stored.prospect.title = "Head Grower"
        stored.prospect.nameParts = NameParts(
            family: "Appleseed", given: "Johnny", additional: "Q.", prefix: "Dr.", suffix: "Jr.")
        stored.prospect.otherEmails = ["apples@example.org"]
        stored.rating = .hot
        stored.tags = ["fair", "vip,gold"]
        return stored
    }

    @Test func theVCardWritesTheCardsOwnNamePartsAndEveryDetail() {
        let card = VCardWriter.card(Self.johnny(), notes: Self.notes)
        let lines = card.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
        #expect(lines.contains("N:Appleseed;Johnny;Q.;Dr.;Jr."))
        #expect(lines.contains("TITLE:Head Grower"))
        #expect(lines.contains("EMAIL:johnny@example.com"))
        #expect(lines.contains("EMAIL:apples@example.org"))
        #expect(lines.contains(#"CATEGORIES:fair,vip\,gold"#))
        #expect(
            lines.contains(
                #"NOTE;X-PROSPECTS-AUTHOR="ana";X-PROSPECTS-WRITTEN="2024-05-29T16:26:40.250Z":"#
                    + #"Met at the fair\nwants a demo"#))
        #expect(
            lines.contains(#"NOTE;X-PROSPECTS-AUTHOR="bo";X-PROSPECTS-WRITTEN="2024-05-30T16:26:40.500Z":sent\; deck"#))
        #expect(lines.contains("X-PROSPECTS-RATING:hot"))
        // And our own parser reads the parts back as they were.
        let parsed = try? PayloadParser().parse(card).get()
        #expect(parsed?.nameParts == Self.johnny().prospect.nameParts)
        #expect(parsed?.title == "Head Grower")
        #expect(parsed?.otherEmails == ["apples@example.org"])
    }

    @Test func csvAndJSONWriteEveryDetail() throws {
        let csv = ProspectExporter(format: .csv).record(Self.johnny(), notes: Self.notes)
        let header = ProspectExporter(format: .csv).header()
        #expect(
            header.hasSuffix(
                "title,familyName,givenName,additionalNames,honorificPrefix,honorificSuffix,"
                    + "otherEmails,otherPhones,rating,tags,notes\r\n"))
        #expect(
            csv.hasSuffix(
                "Head Grower,Appleseed,Johnny,Q.,Dr.,Jr.,apples@example.org,,hot,\"fair ::: vip,gold\","
                    + "\"Met at the fair\nwants a demo ::: sent; deck\"\r\n"))
        let json = ProspectExporter(format: .json).record(Self.johnny(), notes: Self.notes)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "Head Grower")
        #expect((object["nameParts"] as? [String: String])?["suffix"] == "Jr.")
        #expect(object["otherEmails"] as? [String] == ["apples@example.org"])
        #expect(object["rating"] as? String == "hot")
        #expect(object["tags"] as? [String] == ["fair", "vip,gold"])
        #expect((object["notes"] as? [[String: String]])?.map { $0["author"] } == ["ana", "bo"])
    }

    /// Every phone, in each of our formats, and read back by import as the lead's phones.
    @Test func everyPhoneIsWrittenAndReadBack() throws {
        var ola = Fixtures.stored(3, "Ola Nordmann", "ola@example.no")
        ola.prospect.phone = "+47 22 00 00 00"
        ola.prospect.otherPhones = ["+47 400 00 000", "+47 900 00 000"]
        let phones = ["+47 22 00 00 00", "+47 400 00 000", "+47 900 00 000"]

        let card = VCardWriter.card(ola)
        #expect(card.components(separatedBy: "\r\n").filter { $0.hasPrefix("TEL:") } == phones.map { "TEL:" + $0 })
        let parsed = try PayloadParser().parse(card).get()
        #expect([parsed.phone] + parsed.otherPhones == phones)

        let folder = try TemporaryFolder()
        let csv = ProspectExporter(format: .csv)
        let csvPath = try folder.write("ola.csv", csv.header() + csv.record(ola))
        let row = try #require(try CSVRecordReader(path: csvPath).next())
        #expect([row.phone] + row.otherPhones == phones && row.plainNotes.isEmpty)

        let json = ProspectExporter(format: .json).record(ola)
        #expect(json.contains(#""otherPhones":["+47 400 00 000","+47 900 00 000"]"#))
        let jsonPath = try folder.write("ola.jsonl", json)
        let line = try #require(try JSONLinesRecordReader(path: jsonPath).next())
        #expect([line.phone] + line.otherPhones == phones)
    }

    @Test func aGoogleCellOfSeveralAddressesGivesTheFirstValidOneAndKeepsTheRest() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "google.csv",
            "Name,E-mail 1 - Value\nAna,not an address ::: ana@example.com ::: ana@work.example ::: ANA@example.com\n")
        let record = try #require(try CSVRecordReader(path: path).next())
        #expect(record.email == "not an address")
        #expect(record.otherEmails == ["ana@example.com", "ana@work.example", "ANA@example.com"])
        let prospect = try PayloadParser().prospect(
            name: record.name, email: record.email, otherEmails: record.otherEmails
        ).get()
        #expect(prospect.email == "ana@example.com")
        #expect(prospect.otherEmails == ["ana@work.example"])
    }

    /// Only three colons in a row separate values (looked for by bytes, after any text).
    @Test func onlyThreeColonsInARowSeparateValues() {
        #expect(ImportRecord.splitMultipleValues("a::b@x") == ["a::b@x"])
        #expect(ImportRecord.splitMultipleValues("a:b:c@x") == ["a:b:c@x"])
        #expect(ImportRecord.splitMultipleValues("Zoë ::: zoe@x ::: ü@y") == ["Zoë", "zoe@x", "ü@y"])
        #expect(ImportRecord.splitMultipleValues("a@x:::") == ["a@x"])
        #expect(ImportRecord.splitMultipleValues(" ::: ") == [""])
    }
}
