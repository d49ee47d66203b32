import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import ProspectsService
import ProspectsTestSupport
import Testing

/// Our own JSON Lines export, imported into a fresh store of each kind, gives back every field of every lead: the
/// second export equals the first, ids aside.
@Suite("ProspectStore conformance: export → import → export")
struct RoundTripConformanceTests {
    static let directions: [(from: StoreKind, to: StoreKind)] = [
        (.sqlite, .sqlite), (.sqlite, .postgres), (.postgres, .sqlite),
    ]

    @Test(arguments: directions)
    func jsonLinesGiveBackEveryField(from: StoreKind, to: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let source = try StoreFixture(from)
        let target = try StoreFixture(to)
        defer { withExtendedLifetime((source, target)) {} }  // their folders hold the SQLite files
        try Self.fillEveryField(try source.open())

        let first = try Self.export(source, to: folder.file("first.jsonl"))
        #expect(first.contains("\"history\""), "the export carries the scan history")
        #expect(first.contains(#""otherPhones":["+44 7700 900123","+44 20 7946 0001"]"#), "and every phone")
        let summary = try ProspectsService(location: target.location).importList(
            .init(path: folder.file("first.jsonl"), format: .json)
        ) { event in Issue.record("unexpected \(event)") }
        #expect(summary.totals.inserted == 3 && summary.totals.rejected == 0)
        let second = try Self.export(target, to: folder.file("second.jsonl"))
        #expect(Self.withoutIDs(second) == Self.withoutIDs(first))
    }

    /// Our own vCards read back whole: every field a card carries (the first sighting, the scan count, notes with
    /// their authors, rating, tags, contacted, reminder), so the second export is the first, byte for byte.
    @Test(arguments: directions)
    func vCardsGiveBackTheLead(from: StoreKind, to: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let source = try StoreFixture(from)
        let target = try StoreFixture(to)
        defer { withExtendedLifetime((source, target)) {} }
        try Self.fillEveryField(try source.open())

        let first = try Self.export(source, to: folder.file("first.vcf"), format: .vcard)
        let carried = ["X-PROSPECTS-SOURCE:cards/ada.png", "X-PROSPECTS-EVENT:Expo 2026", "X-PROSPECTS-SCAN-COUNT:2"]
        for property in carried {
            #expect(first.contains(property + "\r\n"), "the cards carry \(property)")
        }
        let summary = try ProspectsService(location: target.location).importList(
            .init(path: folder.file("first.vcf"), format: .vcard)
        ) { event in Issue.record("unexpected \(event)") }
        #expect(summary.totals.inserted == 3 && summary.totals.rejected == 0)
        let second = try Self.export(target, to: folder.file("second.vcf"), format: .vcard)
        #expect(second == first)
    }

    /// A lead the target has already gains what the list carries and loses nothing of its own.
    @Test(arguments: StoreKind.allCases)
    func aLeadAlreadyThereIsMergedNotLost(kind: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let source = try StoreFixture(.sqlite)
        let target = try StoreFixture(kind)
        defer { withExtendedLifetime((source, target)) {} }
        try Self.fillEveryField(try source.open())
        _ = try Self.export(source, to: folder.file("list.jsonl"))

        let store = try target.open()
        _ = try store.record([
            Sighting(prospect: Prospect(name: "Ada", email: "ADA@example.org"), source: "own.png", seenAt: date(500))
        ])
        #expect(try store.addNote(.email("ada@example.org"), "our own note", author: "kim", at: date(600)))
        #expect(try store.changeTags(.email("ada@example.org"), adding: ["ours"], removing: []))
        #expect(try store.setRating(.email("ada@example.org"), .cold))

        let service = ProspectsService(location: target.location)
        let summary = try service.importList(.init(path: folder.file("list.jsonl"), format: .json)) { _ in }
        #expect(summary.totals.inserted == 2 && summary.totals.duplicates == 1)
        let ada = try #require(try store.prospect(.email("ada@example.org")))
        #expect(ada.prospect.name == "Ada", "what the store knows is kept")
        #expect(ada.rating == .cold, "a rating the lead has is kept")
        #expect(ada.tags == ["booth", "ours", "vip"])
        #expect(ada.isContacted)
        #expect(ada.remindAt == date(9_000_000))
        let notes = try store.notes(of: ada.id).map(\.text)
        #expect(notes == ["our own note", "Met at the booth", "Call back about pricing"])
        #expect(try store.list(ProspectQuery(search: "pricing")).map(\.id) == [ada.id], "its search key has them")
        // The same list again adds no note twice.
        _ = try service.importList(.init(path: folder.file("list.jsonl"), format: .json, countAgain: true)) { _ in }
        #expect(try store.notes(of: ada.id).count == 3)
    }

    /// Three leads: one with every field, a second scan, notes, rating, tags, contacted and a reminder; one with
    /// none of the optional fields; one whose name and notes are not ASCII.
    static func fillEveryField(_ store: any ProspectStore) throws {
        let ada = Prospect(
            name: "Ada King", email: "Ada@Example.org", phone: "+44 20 7946 0000", organization: "Analytical Engines",
            title: "Countess",
            nameParts: NameParts(family: "King", given: "Ada", additional: "Augusta", prefix: "Dr.", suffix: "FRS"),
            otherEmails: ["ada@engines.example", "lovelace@example.net"], note: "Met at the booth",
            otherPhones: ["+44 7700 900123", "+44 20 7946 0001"])
        _ = try store.record([
            Sighting(
                prospect: ada, source: "cards/ada.png", seenAt: date(1_000_000), createdAtIfNew: date(1_000_000),
                remindAtIfNew: date(9_000_000), event: "Expo 2026", collectedBy: "sam")
        ])
        _ = try store.record([
            Sighting(
                prospect: Prospect(name: "Ada", email: "ada@example.org"), source: "cards/ada-2.jpg",
                seenAt: date(2_000_000), event: "Summit", collectedBy: "lee")
        ])
        #expect(
            try store.addNote(.email("ada@example.org"), "Call back about pricing", author: "kim", at: date(3_000_000)))
        #expect(try store.setRating(.email("ada@example.org"), .hot))
        #expect(try store.changeTags(.email("ada@example.org"), adding: ["vip", "booth"], removing: []))
        #expect(try store.setContacted(.email("ada@example.org"), true))

        _ = try store.record([
            Sighting(prospect: Prospect(name: "Bob", email: "bob@example.com"), source: "list.csv:2", seenAt: date(5))
        ])
        _ = try store.record([
            Sighting(
                prospect: Prospect(name: "Zoë Ünal", email: "zoe@example.de", organization: "Müller & Söhne"),
                source: "z.heic", seenAt: date(7_000), collectedBy: "jürgen")
        ])
        #expect(
            try store.addNote(.email("zoe@example.de"), "Zeile eins\nZeile zwei", author: "jürgen", at: date(8_000)))
        #expect(try store.setRating(.email("zoe@example.de"), .warm))
    }

    /// The store's whole list in `format` (JSON Lines unless told), written by `export`.
    static func export(_ fixture: StoreFixture, to path: String, format: ExportFormat = .json) throws -> String {
        let count = try ProspectsService(location: fixture.location).export(
            ProspectQuery(), format: format, guardsFormulas: true, to: .file(path: path))
        #expect(count == 3)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The lines without their `"id"`: ids are the store's own.
    static func withoutIDs(_ lines: String) -> [String] {
        lines.split(separator: "\n").map { String($0).replacing(/^\{"id":[0-9]+,/, with: "{") }
    }
}
