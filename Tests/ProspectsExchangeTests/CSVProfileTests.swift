import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import Testing

/// `export --format csv --profile hubspot|salesforce|google`: each product's own import columns.
@Suite struct CSVProfileTests {
    static func export(_ profile: CSVProfile, _ prospects: [StoredProspect], notes: [ProspectNote] = []) -> String {
        let exporter = ProspectExporter(format: .csv, profile: profile)
        return exporter.header() + prospects.map { exporter.record($0, notes: notes) }.joined()
    }

    static func withPhoneAndCompany() -> StoredProspect {
        var johnny = DetailsExportTests.johnny()
        johnny.prospect.phone = "+34 600 123 456"
        johnny.prospect.organization = "Orchards, Inc."
        return johnny
    }

    @Test func hubSpotGetsItsPropertyNamesTheCardsOwnNamePartsLeadStatusAndNotes() {
        var contacted = Fixtures.stored(2, "Bob Stone", "bob@example.com")
        contacted.isContacted = true
        let csv = Self.export(.hubspot, [Self.withPhoneAndCompany(), contacted], notes: DetailsExportTests.notes)
        #expect(
            csv == "First Name,Last Name,Email,Phone Number,Company Name,Job Title,Lead Status,Notes\r\n"
                + "Johnny,Appleseed,johnny@example.com,+34 600 123 456,\"Orchards, Inc.\",Head Grower,New,"
                + "\"Met at the fair\nwants a demo\n\nsent; deck\"\r\n"
                + "Bob,Stone,bob@example.com,,,,Attempted to Contact,\"Met at the fair\nwants a demo\n\nsent; deck\"\r\n"
        )
    }

    @Test func salesforceGetsItsLeadFieldsRatingAndNotes() {
        let csv = Self.export(.salesforce, [Self.withPhoneAndCompany()], notes: DetailsExportTests.notes)
        #expect(
            csv == "First Name,Last Name,Email,Phone,Company,Title,Rating,Lead Status,Lead Source,Description\r\n"
                + "Johnny,Appleseed,johnny@example.com,+34 600 123 456,\"Orchards, Inc.\",Head Grower,Hot,"
                + "Open - Not Contacted,Trade Show,"
                + "\"Met at the fair\nwants a demo\n\nsent; deck\"\r\n")
    }

    /// Salesforce refuses a lead without Last Name or Company: a one-word name is the last name, and what is
    /// unknown says so as Salesforce's own Web-to-Lead does.
    @Test func salesforcesRequiredFieldsAreNeverEmpty() {
        let ada = Fixtures.stored(1, "Ada", "ada@example.com")
        let bob = Fixtures.stored(2, "Bob Stone", "bob@example.com", organization: "Stone & Co", contacted: true)
        let rows = Self.export(.salesforce, [ada, bob]).components(separatedBy: "\r\n")
        #expect(rows[1] == ",Ada,ada@example.com,,[not provided],,,Open - Not Contacted,Trade Show,")
        #expect(rows[2] == "Bob,Stone,bob@example.com,,Stone & Co,,,Working - Contacted,Trade Show,")
    }

    @Test func googleGetsItsContactColumnsWithSeveralValuesInOneCell() {
        var johnny = Self.withPhoneAndCompany()
        johnny.prospect.otherEmails = ["apples@example.org", "jq@home.example"]
        let csv = Self.export(.google, [johnny], notes: DetailsExportTests.notes)
        let lines = csv.components(separatedBy: "\r\n")
        #expect(
            lines[0] == "First Name,Middle Name,Last Name,Name Prefix,Name Suffix,Organization Name,Organization Title,"
                + "Notes,Labels,E-mail 1 - Label,E-mail 1 - Value,E-mail 2 - Label,E-mail 2 - Value,Phone 1 - Label,"
                + "Phone 1 - Value,Phone 2 - Label,Phone 2 - Value")
        #expect(
            csv.hasSuffix(
                "Johnny,Q.,Appleseed,Dr.,Jr.,\"Orchards, Inc.\",Head Grower,\"Met at the fair\nwants a demo\n\nsent; "
                    + "deck\",\"fair ::: vip,gold\",* Work,johnny@example.com,Other,apples@example.org ::: "
                    + "jq@home.example,Work,+34 600 123 456,,\r\n"))
    }

    /// Every phone: Google's second phone column holds the others in one cell, read back as the lead's phones;
    /// HubSpot and Salesforce, with one phone column, get the others in their notes column.
    @Test func everyPhoneGoesOutInEachProfile() throws {
        var johnny = Self.withPhoneAndCompany()
        johnny.prospect.otherPhones = ["+34 600 123 457", "+1 555 0100"]
        var evilPhones = johnny
        evilPhones.prospect.otherPhones = ["+1 555 0100", "=1"]
        let google = Self.export(.google, [johnny])
        #expect(google.hasSuffix(",Work,+34 600 123 456,Other,+34 600 123 457 ::: +1 555 0100\r\n"), "no formula")
        #expect(ProspectExporter(format: .csv, profile: .google).record(evilPhones).contains(",'+1 555 0100 ::: =1"))
        let folder = try TemporaryFolder()
        let record = try #require(try CSVRecordReader(path: try folder.write("google.csv", google)).next())
        #expect(record.phone == "+34 600 123 456" && record.otherPhones == ["+34 600 123 457", "+1 555 0100"])
        #expect(record.plainNotes.isEmpty)
        for profile in [CSVProfile.hubspot, .salesforce] {
            let csv = Self.export(profile, [johnny], notes: DetailsExportTests.notes)
            #expect(
                csv.contains("sent; deck\n\nOther phones: +34 600 123 457, +1 555 0100\""), "\(profile): \(csv)")
        }
    }

    /// A formula in a cell is still guarded under every profile.
    @Test func everyProfileStillGuardsFormulas() {
        let evil = Fixtures.stored(3, "=HYPERLINK(\"http://x\") Eve", "eve@example.com", organization: "@SUM(A1)")
        for profile in CSVProfile.allCases {
            let csv = Self.export(profile, [evil])
            #expect(csv.contains("'@SUM(A1)"), "\(profile)")
            #expect(!csv.contains(",=") && !csv.contains("\"=") && !csv.hasPrefix("="), "\(profile)")
        }
    }

    /// Google's layout comes back through our own import: name and its parts, addresses, phone, organisation, title.
    @Test func googlesCSVRoundTripsThroughImport() throws {
        var johnny = Self.withPhoneAndCompany()
        johnny.prospect.otherEmails = ["apples@example.org", "jq@home.example"]
        let ada = Fixtures.stored(1, "Ada Lovelace", "ada@example.com")
        let folder = try TemporaryFolder()
        let path = try folder.write("google.csv", Self.export(.google, [johnny, ada]))
        let reader = try CSVRecordReader(path: path)
        let first = try #require(try reader.next())
        #expect(first.name == "Dr. Johnny Q. Appleseed Jr.")
        #expect(first.nameParts == ["Appleseed", "Johnny", "Q.", "Dr.", "Jr."])
        #expect(first.email == "johnny@example.com")
        #expect(first.otherEmails == ["apples@example.org", "jq@home.example"])
        #expect(first.phone == "+34 600 123 456")
        #expect(first.organization == "Orchards, Inc.")
        #expect(first.title == "Head Grower")
        let second = try #require(try reader.next())
        #expect(second.name == "Ada Lovelace")
        #expect(second.nameParts == ["Lovelace", "Ada", "", "", ""])
        #expect(second.otherEmails.isEmpty && second.phone == nil && second.title == nil)
        #expect(try reader.next() == nil)
    }

    /// Each CRM's file read back: its lead status as the contacted state, its rating, its notes, and its
    /// placeholders as nothing.
    @Test func crmFilesReadBackTheirStatusRatingNotesAndNoPlaceholders() throws {
        var johnny = Self.withPhoneAndCompany()
        johnny.isContacted = true
        let ada = Fixtures.stored(1, "Ada", "ada@example.com")
        let folder = try TemporaryFolder()
        for profile in [CSVProfile.hubspot, .salesforce] {
            let path = try folder.write(
                "\(profile).csv", Self.export(profile, [johnny, ada], notes: DetailsExportTests.notes))
            let reader = try CSVRecordReader(path: path)
            let first = try #require(try reader.next())
            #expect(first.contacted == true, "\(profile)")
            #expect(first.plainNotes == ["Met at the fair\nwants a demo\n\nsent; deck"], "\(profile)")
            let second = try #require(try reader.next())
            #expect(second.contacted == false, "\(profile)")
            #expect(second.organization == nil, "\(profile): [not provided] is no company")
            #expect(second.name == "Ada", "\(profile)")
            if profile == .salesforce { #expect(first.carried?.rating == .hot) }
            #expect(reader.ignoredColumns == (profile == .salesforce ? ["Lead Source"] : []), "\(profile)")
        }
    }
}
