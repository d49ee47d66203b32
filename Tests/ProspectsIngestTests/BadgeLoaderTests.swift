import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest
import ProspectsTestSupport
import QRDecoding
import Testing

/// Badges whose code holds only an attendee ID, on real PNGs, real zbar and both real stores: looked up in the
/// roster of the run's event.
@Suite struct BadgeLoaderTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    static func open(_ kind: Kind, _ folder: TemporaryDirectory) throws -> any RosterStore {
        switch kind {
        case .sqlite: try SQLiteStore(path: folder.file("prospects.sqlite"))
        case .postgres: try PostgresStore(url: try PostgresTestServer.shared().makeDatabase())
        }
    }

    static func load(_ store: any ProspectStore, event: String?, _ codes: [(String, String)]) throws -> [FileResult] {
        let loader = Loader(store: store, context: CollectionContext(event: event, collectedBy: "sam"))
        var results: [FileResult] = []
        for (text, name) in codes {
            try loader.add(FileProcessor().process(bytes: PNGFixtures.contactCode(text), path: name)) {
                results.append($0)
            }
        }
        try loader.flush { results.append($0) }
        return results
    }

    static let when = Date(timeIntervalSince1970: 1_780_000_000)

    @Test(arguments: Kind.allCases)
    func aBadgeIDInTheRosterBecomesItsAttendeeAndAnUnknownOneIsRejectedNamingIt(kind: Kind) throws {
        let folder = try TemporaryDirectory()
        let store = try Self.open(kind, folder)
        _ = try store.writeRoster([
            RosterEntry(
                event: "Expo", attendeeID: "0814847311126137001", name: "Ada Lovelace", email: "ada@example.com",
                organization: "Engines Ltd", title: "CTO", source: "a.csv:2", importedAt: Self.when),
            RosterEntry(event: "Expo", attendeeID: "77", name: "No Mail", source: "a.csv:3", importedAt: Self.when),
        ])
        #expect(
            try store.updateEvent(
                Event(name: "Expo", badgePattern: "https://reg\\.example/b/(?<id>[0-9]+)", createdAt: Self.when)))
        // Ada's vCard scanned earlier: her badge is a new scan of the same lead, not a second person.
        _ = try Self.load(store, event: "Fair", [("Ada Lovelace\nADA@example.com", "card.png")])
        let results = try Self.load(
            store, event: "Expo",
            [
                ("0814847311126137001", "badge.png"), ("https://reg.example/b/0814847311126137001?s=1", "url.png"),
                ("12345", "unknown.png"), ("77", "nomail.png"),
            ])
        #expect(results.map(\.outcome) == [.duplicate, .duplicate, .rejected, .rejected])
        #expect(results[2].file.rejection == .badgeNotInRoster(id: "12345", event: "Expo"))
        #expect(results[2].file.rejection?.message.hasPrefix("badge 12345 is not in the roster of Expo") == true)
        #expect(results[3].file.rejection == .badgeAttendeeWithoutEmail(id: "77", event: "Expo"))
        #expect(try store.count() == 1)
        let ada = try #require(try store.prospect(.email("ada@example.com")))
        #expect(ada.scanCount == 3)
        #expect(try store.history(of: ada.id).map(\.event) == ["Fair", "Expo", "Expo"])

        // Without the event's roster, such a code is no contact, as before.
        let elsewhere = try Self.load(store, event: "Fair", [("0814847311126137001", "fair.png")])
        #expect(elsewhere.first?.file.rejection == .unsupportedPayload(summary: "text \"0814847311126137001\""))
        let noEvent = try Self.load(store, event: nil, [("12345", "plain.png")])
        #expect(noEvent.first?.file.rejection?.kind == "unsupportedPayload")
    }

    @Test(arguments: Kind.allCases)
    func aBadgeOfAnAttendeeNotYetALeadMakesOneWithTheRostersDetails(kind: Kind) throws {
        let folder = try TemporaryDirectory()
        let store = try Self.open(kind, folder)
        _ = try store.writeRoster([
            RosterEntry(
                event: "Expo", attendeeID: "T-9", name: "Grace Hopper", email: "grace@example.com",
                organization: "Navy", title: "Rear Admiral", phone: "+1 202 555 0100", source: "a.csv:2",
                importedAt: Self.when)
        ])
        let results = try Self.load(store, event: "Expo", [(" T-9 ", "grace.png")])
        #expect(results.map(\.outcome) == [.inserted])
        let grace = try #require(try store.prospect(.email("grace@example.com")))
        #expect(grace.prospect.name == "Grace Hopper" && grace.prospect.organization == "Navy")
        #expect(grace.prospect.title == "Rear Admiral" && grace.prospect.phone == "+1 202 555 0100")
        #expect(grace.firstEvent == "Expo" && grace.firstSource == "grace.png")
    }
}
