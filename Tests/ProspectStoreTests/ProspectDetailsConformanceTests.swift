import Foundation
import ProspectsCore
import Testing

@testable import ProspectStore

/// Schema version 3 — a card's details, notes, ratings and tags — run unchanged against both stores.
@Suite("ProspectStore conformance: details, notes, ratings, tags")
struct ProspectDetailsConformanceTests {
    static let card = Prospect(
        name: "Dr. Johnny Q. Appleseed", email: "johnny@example.com", phone: "+1 555 0100", organization: "Orchards",
        title: "Head Grower",
        nameParts: NameParts(family: "Appleseed", given: "Johnny", additional: "Q.", prefix: "Dr."),
        otherEmails: ["apples@example.org", "j@example.net"], note: "Met at the fair\nwants a demo")

    /// A fresh store of `kind` holding one plain card, Paul's, and its id.
    static func storeWithPaul(_ kind: StoreKind) throws -> (StoreFixture, any ProspectStore, Int64) {
        let fixture = try StoreFixture(kind)
        let store = try fixture.open()
        let result = try store.record([sighting("Paul", "paul@example.com")]).first
        let id: Int64? = if case .inserted(let id)? = result { id } else { nil }
        return (fixture, store, try #require(id, "the first card was not inserted"))
    }

    @Test(arguments: StoreKind.allCases)
    func aCardsDetailsAreKeptWithItsFirstNoteByItsCollector(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let first = Sighting(
            prospect: Self.card, source: "fair/1.png", seenAt: date(1_000), event: "Spring Fair", collectedBy: "ana")
        guard case .inserted(let id)? = try store.record([first]).first else {
            Issue.record("expected an insert")
            return
        }
        // A second scan by someone else counts, and adds neither a note nor addresses.
        let again = Sighting(prospect: Self.card, source: "fair/2.png", seenAt: date(2_000), collectedBy: "bo")
        #expect(try store.record([again]) == [.duplicate(id: id)])
        let stored = try #require(try store.prospect(.id(id)))
        var expected = Self.card
        expected.note = nil
        #expect(stored.prospect == expected)
        #expect(stored.rating == ProspectRating.none)
        #expect(stored.firstEvent == "Spring Fair")
        #expect(stored.firstCollectedBy == "ana")
        #expect(stored.scanCount == 2)
        #expect(
            try store.notes(of: id) == [
                ProspectNote(writtenAt: date(1_000), author: "ana", text: "Met at the fair\nwants a demo")
            ])
        #expect(try store.list(filter: .everyone, sort: .name, reverse: false).map(\.prospect) == [expected])
    }

    @Test(arguments: StoreKind.allCases)
    func aCardWithoutDetailsHasNone(kind: StoreKind) throws {
        let (fixture, store, id) = try Self.storeWithPaul(kind)
        defer { withExtendedLifetime(fixture) {} }
        let stored = try #require(try store.prospect(.id(id)))
        #expect(stored.prospect == Prospect(name: "Paul", email: "paul@example.com"))
        #expect(stored.firstEvent == nil && stored.firstCollectedBy == nil)
        #expect(try store.notes(of: id) == [])
        #expect(try store.tags(of: id) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func notesAreAppendedOldestFirst(kind: StoreKind) throws {
        let (fixture, store, id) = try Self.storeWithPaul(kind)
        defer { withExtendedLifetime(fixture) {} }
        #expect(try store.addNote(.email("PAUL@example.com"), "called, no answer", author: "ana", at: date(5_000)))
        #expect(try store.addNote(.id(id), "sent the deck", author: "bo", at: date(9_000)))
        #expect(try !store.addNote(.id(id + 100), "nobody", author: "bo", at: date(9_000)))
        #expect(
            try store.notes(of: id) == [
                ProspectNote(writtenAt: date(5_000), author: "ana", text: "called, no answer"),
                ProspectNote(writtenAt: date(9_000), author: "bo", text: "sent the deck"),
            ])
        #expect(try store.delete(.id(id)))
        #expect(try store.notes(of: id) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func aRatingIsSetAndRead(kind: StoreKind) throws {
        let (fixture, store, id) = try Self.storeWithPaul(kind)
        defer { withExtendedLifetime(fixture) {} }
        for rating in ProspectRating.allCases {
            #expect(try store.setRating(.id(id), rating))
            #expect(try store.prospect(.id(id))?.rating == rating)
        }
        #expect(try store.setRating(.email("paul@example.com"), .hot))
        #expect(try store.prospect(.id(id))?.rating == .hot)
        #expect(try !store.setRating(.id(id + 100), .cold))
    }

    @Test(arguments: StoreKind.allCases)
    func tagsAreAddedAndRemoved(kind: StoreKind) throws {
        let (fixture, store, id) = try Self.storeWithPaul(kind)
        defer { withExtendedLifetime(fixture) {} }
        #expect(try store.changeTags(.id(id), adding: ["vip", "fair", "vip", "Émigré"], removing: []))
        #expect(try store.tags(of: id) == ["fair", "vip", "Émigré"])
        #expect(try store.changeTags(.email("paul@example.com"), adding: ["new"], removing: ["fair", "absent"]))
        #expect(try store.tags(of: id) == ["new", "vip", "Émigré"])
        #expect(try !store.changeTags(.id(id + 100), adding: ["x"], removing: []))
        #expect(try store.delete(.id(id)))
        #expect(try store.tags(of: id) == [])
    }

    /// A store written by the previous release (schema version 2, made with that version's own SQL) opens, keeps its
    /// rows, reminder and contacted mark, and takes notes, ratings and tags.
    @Test(arguments: StoreKind.allCases)
    func aVersion2StoreIsMigratedInPlaceAndTakesANote(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let rows = """
            INSERT INTO prospects (name, email, email_key, contacted, created_at, last_seen_at, scan_count, \
            first_source, remind_at, name_key, phone) VALUES \
            ('Émile Zola', 'Emile@Example.com', 'emile@example.com', TRUE, 1000, 3000, 2, 'in/a.png', 9000, \
            'emile zola', '+33 1'), \
            ('alice', 'alice@example.com', 'alice@example.com', FALSE, 2000, 2000, 1, 'in/b.png', NULL, 'alice', NULL)
            """
        switch kind {
        case .sqlite:
            try fixture.executeRaw([SQLiteSchema.version1, SQLiteSchema.version2, rows, "PRAGMA user_version = 2"])
        case .postgres:
            try fixture.executeRaw(
                PostgresSchema.version1 + PostgresSchema.version2 + [
                    rows, "CREATE TABLE schema_version (version integer NOT NULL)",
                    "INSERT INTO schema_version VALUES (2)",
                ])
        }
        let store = try fixture.open()
        let emile = try #require(try store.prospect(.email("emile@example.com")))
        #expect(emile.prospect == Prospect(name: "Émile Zola", email: "Emile@Example.com", phone: "+33 1"))
        #expect(emile.isContacted)
        #expect(emile.remindAt == date(9_000))
        #expect(emile.scanCount == 2 && emile.createdAt == date(1_000) && emile.lastSeenAt == date(3_000))
        #expect(emile.rating == ProspectRating.none)
        #expect(try store.due(at: date(10_000)).map(\.id) == [emile.id])
        #expect(try store.count() == 2)
        #expect(try store.addNote(.id(emile.id), "still keen", author: "ana", at: date(20_000)))
        #expect(
            try store.notes(of: emile.id) == [ProspectNote(writtenAt: date(20_000), author: "ana", text: "still keen")])
        #expect(try store.setRating(.id(emile.id), .warm))
        #expect(try store.changeTags(.id(emile.id), adding: ["writer"], removing: []))
        // New ids stay above the old ones, and a new card's details go in.
        guard
            case .inserted(let id)? = try store.record([
                Sighting(prospect: Self.card, source: "c.png", seenAt: date(30_000))
            ]).first
        else {
            Issue.record("expected an insert")
            return
        }
        #expect(id > emile.id)
        #expect(try store.prospect(.id(id))?.prospect.otherEmails == Self.card.otherEmails)
        #expect(try fixture.columns(of: "prospects").contains("rating"))
    }
}
