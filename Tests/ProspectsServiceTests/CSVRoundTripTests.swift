import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import ProspectsTestSupport
import Testing

@testable import ProspectsService

/// The plain CSV export read back: the team's rating, tags and notes come back with the lead.
@Suite struct CSVRoundTripTests {
    @Test func ratingTagsAndNotesComeBack() throws {
        let folder = try TemporaryDirectory()
        let source = ProspectsService(location: .sqlite(path: folder.file("a.sqlite")))
        _ = try source.store(create: true).record([
            Sighting(
                prospect: Prospect(name: "Ada King", email: "ada@example.org", organization: "Engines"),
                source: "a.png", seenAt: Date(timeIntervalSince1970: 1_000), collectedBy: "sam")
        ])
        _ = try source.addNote(.id(1), text: "First, with a comma", author: "sam", at: Date(timeIntervalSince1970: 2))
        _ = try source.addNote(.id(1), text: "Second\non two lines", author: "kim", at: Date(timeIntervalSince1970: 3))
        try source.setRating(.id(1), .warm)
        _ = try source.changeTags(.id(1), adding: ["vip", "=formula"], removing: [])
        let csv = folder.file("list.csv")
        _ = try source.export(ProspectQuery(), format: .csv, guardsFormulas: true, to: .file(path: csv))

        let target = ProspectsService(location: .sqlite(path: folder.file("b.sqlite")))
        let summary = try target.importList(.init(path: csv, format: .csv, context: .init(collectedBy: "importer"))) {
            Issue.record("unexpected \($0)")
        }
        #expect(summary.totals.inserted == 1)
        let ada = try #require(try target.details(of: .email("ada@example.org")))
        #expect(ada.stored.rating == .warm)
        #expect(ada.stored.tags == ["=formula", "vip"])
        #expect(ada.notes.map(\.text) == ["First, with a comma", "Second\non two lines"])
        #expect(ada.notes.allSatisfy { $0.author == "importer" }, "a CSV note's author is the import's")
    }

    /// A CRM's `[not provided]` (Salesforce's placeholder) is no company; a rating it cannot read is said.
    @Test func placeholdersAreEmptyAndAnUnreadableRatingIsSaid() throws {
        let folder = try TemporaryDirectory()
        let csv = folder.file("salesforce.csv")
        try Data(
            """
            First Name,Last Name,Email,Company,Rating,Description
            Ada,King,ada@example.org,[not provided],Hot,Met at the booth
            Bob,Stone,bob@example.com,Stone Ltd,Lukewarm,

            """.utf8
        ).write(to: URL(fileURLWithPath: csv))
        let service = ProspectsService(location: .sqlite(path: folder.file("s.sqlite")))
        var events: [ListImport.Event] = []
        _ = try service.importList(.init(path: csv, format: .csv)) { events.append($0) }
        let ada = try #require(try service.details(of: .email("ada@example.org")))
        #expect(ada.stored.prospect.organization == nil)
        #expect(ada.stored.rating == .hot)
        #expect(ada.notes.map(\.text) == ["Met at the booth"])
        #expect(events == [.ignoredCell(line: 3, what: #""Rating" "Lukewarm" is not hot, warm, cold or none"#)])
    }

    /// A real-shaped Google Contacts file imported whole: notes, labels and the other phones kept, the columns left
    /// out named in the summary.
    @Test func googleContactsKeepTheirNotesLabelsAndPhones() throws {
        let folder = try TemporaryDirectory()
        let google = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../ProspectsExchangeTests/Fixtures/google-contacts.csv").standardizedFileURL.path
        let service = ProspectsService(location: .sqlite(path: folder.file("g.sqlite")))
        let summary = try service.importList(.init(path: google, format: .csv, context: .init(collectedBy: "sam"))) {
            Issue.record("unexpected \($0)")
        }
        #expect(summary.totals.inserted == 3)
        #expect(summary.ignoredColumns.contains("Birthday") && summary.ignoredColumns.contains("Address 1 - Street"))
        #expect(summary.countsLine.hasPrefix("3 rows: 3 inserted, 0 duplicates, 0 rejected; ignored columns: Phonetic"))
        let ada = try #require(try service.details(of: .email("ada@engines.example")))
        #expect(ada.stored.tags == ["Expo 2026", "VIP"])
        #expect(ada.stored.prospect.phone == "+44 20 7946 0000")
        #expect(ada.stored.prospect.otherPhones == ["+44 20 7946 0001", "+44 20 7946 0002"])
        #expect(ada.notes.map(\.text) == ["Met at the booth.\nWants a demo in January."])
        #expect(try service.details(of: .email("bobby@example.com"))?.stored.prospect.name == "Bobby")
    }
}
