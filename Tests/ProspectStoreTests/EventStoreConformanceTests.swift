import Foundation
import ProspectsCore
import Testing

@testable import ProspectStore

/// Events and their rosters (schema 8), run unchanged against every `StoreKind`.
@Suite("EventStore conformance")
struct EventStoreConformanceTests {
    static func events(_ store: any ProspectStore) throws -> any RosterStore {
        try #require(store as? any RosterStore)
    }

    static func scan(_ name: String, _ email: String, at milliseconds: Int64, event: String?) -> Sighting {
        Sighting(
            prospect: Prospect(name: name, email: email), source: "\(name).png", seenAt: date(milliseconds),
            event: event)
    }

    @Test(arguments: StoreKind.allCases)
    func eventsAreAddedListedReadAndUpdated(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try Self.events(try fixture.open())
        #expect(try store.events().isEmpty)
        let expo = Event(
            name: "Expo 2026", starts: EventDay("2026-03-18"), ends: EventDay("2026-03-20"), location: "Hall B",
            createdAt: date(1_780_000_000_000))
        let berlin = Event(name: "Berlin Summit", createdAt: date(1_780_000_001_000))
        #expect(try store.addEvent(expo))
        #expect(try store.addEvent(berlin))
        var impostor = expo
        impostor.location = "elsewhere"
        #expect(try store.addEvent(impostor) == false, "a name taken is refused, and the event left as it was")
        #expect(try store.events() == [berlin, expo], "by name, in byte order")
        #expect(try store.event(named: "Expo 2026") == expo)
        #expect(try store.event(named: "expo 2026") == nil, "names are exact")

        var edited = expo
        edited.location = nil
        edited.ends = EventDay("2026-03-21")
        edited.badgePattern = "https://expo\\.example/b/(?<id>[0-9]+)"
        edited.createdAt = date(0)
        #expect(try store.updateEvent(edited))
        var expected = edited
        expected.createdAt = expo.createdAt
        #expect(try Self.events(try fixture.open()).event(named: "Expo 2026") == expected, "the date added stays")
        #expect(try store.updateEvent(Event(name: "Nowhere", createdAt: date(0))) == false)
        #expect(try store.count() == 0, "events are no leads")
    }

    @Test(arguments: StoreKind.allCases)
    func aScanNamingAnEventForTheFirstTimeMakesItAnEvent(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        _ = try store.record([
            Self.scan("Ada", "ada@example.com", at: 1_700_000_005_000, event: "Expo"),
            Self.scan("Bob", "bob@example.com", at: 1_700_000_001_000, event: "Expo"),
            Self.scan("Cy", "cy@example.com", at: 1_700_000_002_000, event: nil),
        ])
        _ = try store.record([Self.scan("Ada", "ada@example.com", at: 1_700_000_009_000, event: "Fair")])
        let events = try Self.events(store)
        #expect(
            try events.events() == [
                Event(name: "Expo", createdAt: date(1_700_000_001_000)),
                Event(name: "Fair", createdAt: date(1_700_000_009_000)),
            ], "dated by their earliest scan")
        let counts = try events.eventCounts(named: "Expo")
        #expect(counts.leads == 2 && counts.scans == 2)
        let fair = try events.eventCounts(named: "Fair")
        #expect(fair.leads == 1 && fair.scans == 1)
        // A known event keeps what it was given.
        #expect(try events.updateEvent(Event(name: "Fair", location: "Hall 3", createdAt: date(0))))
        _ = try store.record([Self.scan("Dee", "dee@example.com", at: 1_600_000_000_000, event: "Fair")])
        #expect(try events.event(named: "Fair")?.location == "Hall 3")
        #expect(try events.event(named: "Fair")?.createdAt == date(1_700_000_009_000))
    }

    /// Version 7 to 8: every free-text event name the leads and scans held becomes an event, dated by its first
    /// scan; the scans keep their names, so nothing is lost, and SQLite's copy of the store is version 7 as it was.
    @Test(arguments: StoreKind.allCases)
    func aVersion7StoreHasItsFreeTextEventsMadeIntoEvents(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let first = try fixture.open()
        _ = try first.record([
            Self.scan("Ada", "ada@example.com", at: 1_700_000_003_000, event: "Expo 2026"),
            Self.scan("Bob", "bob@example.com", at: 1_700_000_004_000, event: nil),
        ])
        _ = try first.record([
            Self.scan("Bob", "bob@example.com", at: 1_700_000_002_000, event: "Expo 2026"),
            Self.scan("Ada", "ada@example.com", at: 1_700_000_006_000, event: "Späti Summit"),
        ])
        try fixture.executeRaw(
            ["DROP TABLE roster_entries", "DROP TABLE events"]
                + (kind == .sqlite ? ["PRAGMA user_version = 7"] : ["UPDATE schema_version SET version = 7"]))
        #expect(try fixture.columns(of: "events").isEmpty)

        let store = try fixture.open()
        let migration = try #require(store.migration)
        #expect(migration.from == 7 && migration.to == 8)
        #expect(
            try Self.events(store).events() == [
                Event(name: "Expo 2026", createdAt: date(1_700_000_002_000)),
                Event(name: "Späti Summit", createdAt: date(1_700_000_006_000)),
            ])
        let ada = try #require(try store.prospect(.email("ada@example.com")))
        #expect(ada.firstEvent == "Expo 2026")
        #expect(try store.history(of: ada.id).map(\.event) == ["Expo 2026", "Späti Summit"])
        let bob = try #require(try store.prospect(.email("bob@example.com")))
        #expect(try Set(store.history(of: bob.id).map(\.event)) == [nil, "Expo 2026"])
        #expect(try store.list(ProspectQuery(event: "Expo 2026")).count == 2, "the list filter finds them as before")
        if case .sqlite(let path) = fixture.location {
            let backup = try #require(migration.backup)
            #expect(backup == path + ".schema-7.bak")
            let old = try SQLiteDatabase(path: backup, create: false)
            #expect(try old.query("PRAGMA user_version") { row throws(StoreError) in try row.int(0) } == [7])
        } else {
            #expect(migration.backup == nil)
        }
        #expect(try fixture.open().migration == nil)
    }

    static func attendee(_ id: String, _ name: String, email: String? = nil, event: String = "Expo", line: Int)
        -> RosterEntry
    {
        RosterEntry(
            event: event, attendeeID: id, name: name, email: email, organization: "Acme", title: nil,
            phone: nil, source: "roster.csv:\(line)", importedAt: date(1_700_000_000_000))
    }

    @Test(arguments: StoreKind.allCases)
    func aRosterImportedAgainIsUpdatedNeverDuplicated(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try Self.events(try fixture.open())
        let first = [
            Self.attendee("0814847311126137001", "Ada Lovelace", email: "ada@example.com", line: 2),
            Self.attendee("0814847311126137002", "Bob Byte", line: 3),
            Self.attendee("A-1", "Cy Other", event: "Fair", line: 2),
        ]
        #expect(try store.writeRoster(first) == RosterWrite(added: 3, updated: 0))
        #expect(try store.event(named: "Expo") != nil, "a roster's event is made an event")
        var changed = Self.attendee("0814847311126137002", "Bob Byte", email: "bob@example.com", line: 2)
        changed.title = "CTO"
        let second = [changed, Self.attendee("0814847311126137003", "Dee Dot", line: 3)]
        #expect(try store.writeRoster(second) == RosterWrite(added: 1, updated: 1))
        #expect(try store.rosterCount(of: "Expo") == 3)
        #expect(try store.rosterCount(of: "Fair") == 1)
        #expect(try store.hasRoster("Fair") && !store.hasRoster("Nowhere"))
        #expect(
            try store.roster(of: "Expo").map(\.attendeeID) == [
                "0814847311126137001", "0814847311126137002", "0814847311126137003",
            ])
        #expect(try store.rosterEntry(event: "Expo", attendeeID: "0814847311126137002") == changed)
        #expect(try store.rosterEntry(event: "Fair", attendeeID: "0814847311126137002") == nil, "per event")
        #expect(try store.rosterEntry(event: "Fair", attendeeID: "A-1")?.name == "Cy Other")
        #expect(try store.count() == 0, "attendees are no leads until scanned")
    }
}
