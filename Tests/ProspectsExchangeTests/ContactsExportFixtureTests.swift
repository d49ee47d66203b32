import Foundation
import ProspectStore
import ProspectsCore
import Testing

@testable import ProspectsExchange

/// Files shaped as Google Contacts and Outlook export them (`Fixtures/`: a BOM, CRLF, quoted line breaks, ` ::: `
/// cells, several phones and addresses): every value is read into the lead, or its column named as ignored.
@Suite struct ContactsExportFixtureTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }

    static func records(_ name: String) throws -> (records: [ImportRecord], ignored: [String]) {
        let reader = try CSVRecordReader(path: fixture(name))
        var records: [ImportRecord] = []
        while let record = try reader.next() { records.append(record) }
        return (records, reader.ignoredColumns)
    }

    @Test func googleContacts() throws {
        let (records, ignored) = try Self.records("google-contacts.csv")
        try #require(records.count == 3)
        let ada = records[0]
        #expect(ada.line == 2)
        #expect(ada.name == "Dr. Ada Augusta King")
        #expect(ada.nameParts == ["King", "Ada", "Augusta", "Dr.", ""])
        #expect(ada.email == "ada@engines.example")
        #expect(ada.otherEmails == ["ada.king@example.net", "ada@lovelace.example"])
        #expect(ada.phone == "+44 20 7946 0000", "the first of several phones in one cell")
        #expect(ada.otherPhones == ["+44 20 7946 0001", "+44 20 7946 0002"], "and the others, in order")
        #expect(ada.organization == "Analytical Engines")
        #expect(ada.title == "Countess")
        #expect(ada.plainNotes == ["Met at the booth.\nWants a demo in January."], "no phone in a note")
        #expect(ada.carried?.tags == ["Expo 2026", "VIP"], "Google's own * myContacts is no tag")
        #expect(records[1].name == "Bobby", "a row with only a nickname is named by it")
        #expect(records[1].email == "bobby@example.com")
        #expect(records[2].name == "José Núñez Jr.")
        #expect(records[2].carried?.tags == ["Expo 2026"])
        #expect(
            ignored == [
                "Phonetic First Name", "Phonetic Middle Name", "Phonetic Last Name", "File As",
                "Organization Department", "Birthday", "Photo", "Address 1 - Label",
                "Address 1 - Formatted", "Address 1 - Street", "Address 1 - City", "Address 1 - Postal Code",
                "Address 1 - Country", "Website 1 - Label", "Website 1 - Value",
            ])
    }

    @Test func outlookContacts() throws {
        let (records, ignored) = try Self.records("outlook-contacts.csv")
        try #require(records.count == 2)
        let grace = records[0]
        #expect(grace.name == "Ms. Grace Hopper PhD", "Outlook's Title is the honorific")
        #expect(grace.nameParts == ["Hopper", "Grace", "", "Ms.", "PhD"])
        #expect(grace.title == "Rear Admiral", "Job Title is the title")
        #expect(grace.organization == "US Navy")
        #expect(grace.otherEmails == ["ghopper@example.org"])
        #expect(grace.phone == "+1 202 555 0199")
        #expect(grace.otherPhones == ["+1 202 555 0100"], "the Mobile Phone column after Business Phone")
        #expect(grace.plainNotes == ["Nanoseconds: bring wire.\nCall after 10."])
        #expect(grace.carried?.tags == ["Conference", "Hot leads"])
        #expect(records[1].name == "Zed")
        #expect(ignored.contains("Department") && ignored.contains("Business Street") && ignored.contains("Birthday"))
        #expect(!ignored.contains("Title") && !ignored.contains("Job Title") && !ignored.contains("Mobile Phone"))
    }
}

/// vCards: one Prospects wrote gives the lead back; one of another program keeps every NOTE and its CATEGORIES.
@Suite struct VCardDetailsImportTests {
    static func records(_ path: String) throws -> [ImportRecord] {
        let reader = try VCardFileReader(path: path)
        var records: [ImportRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    @Test func aPhonesCardsKeepEveryNoteAndTheirCategories() throws {
        let records = try Self.records(ContactsExportFixtureTests.fixture("phone-contacts.vcf"))
        try #require(records.count == 2)
        #expect(records[0].plainNotes == ["Second note, from the phone"], "the first NOTE is the card's own")
        #expect(records[0].carried?.tags == ["Expo 2026", "VIP"])
        #expect(!records[0].replacesCardNote)
        let card = try PayloadParser().parse(utf8: try #require(records[0].card)).get()
        #expect(card.note == "Met at the booth\nwants a demo")
        #expect(card.phone == "+44 20 7946 0000")
        #expect(card.otherPhones == ["+44 20 7946 0003", "+44 7700 900123"], "every TEL, the repeated one once")
        #expect(records[1].carried?.tags == ["Expo 2026"])
        let jose = try PayloadParser().parse(utf8: try #require(records[1].card)).get()
        #expect(jose.name == "José Núñez" && jose.note == "Café con leche por la mañana")
    }

    @Test func aCardProspectsWroteGivesTheLeadBack() throws {
        var johnny = DetailsExportTests.johnny()
        johnny.isContacted = true
        johnny.remindAt = Date(timeIntervalSince1970: 1_800_000_000.125)
        let folder = try TemporaryFolder()
        let path = try folder.write("ours.vcf", VCardWriter.card(johnny, notes: DetailsExportTests.notes))
        let record = try #require(try Self.records(path).first)
        #expect(record.replacesCardNote)
        #expect(record.carried?.notes == DetailsExportTests.notes)
        #expect(record.carried?.tags == johnny.tags)
        #expect(record.carried?.rating == .hot)
        #expect(record.carried?.lastSeenAt == johnny.lastSeenAt)
        #expect(record.contacted == true)
        #expect(record.remindAt == johnny.remindAt)
        #expect(record.createdAt == johnny.createdAt)
        #expect(record.ignored.isEmpty)
    }
}
