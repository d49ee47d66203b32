import Foundation
import ProspectsCore
import Testing

@testable import ProspectStore

/// Schema version 4 — the stored search key and counts in SQL — run unchanged against both stores.
@Suite("ProspectStore conformance: search key and counts")
struct SearchKeyConformanceTests {
    func names(_ store: any ProspectStore, _ search: String) throws -> [String] {
        try store.list(ProspectQuery(search: search)).map(\.prospect.name)
    }

    /// Every write that changes what a search looks in changes the key: a later card's organisation and title, a
    /// note, tags added and removed, an edit.
    @Test(arguments: StoreKind.allCases)
    func theSearchKeyFollowsEveryChange(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let bare = Prospect(name: "Jürgen Müller", email: "JM@Example.de")
        guard case .inserted(let id)? = try store.record([Sighting(prospect: bare, source: "a", seenAt: date(1))]).first
        else { throw StoreError.corrupt("expected an insert") }
        #expect(try names(store, "muller") == ["Jürgen Müller"])
        #expect(try names(store, "jm@example") == ["Jürgen Müller"])
        #expect(try names(store, "backerei").isEmpty)

        var fuller = bare
        fuller.organization = "Bäckerei Ost"
        fuller.title = "Ingénieur"
        #expect(try store.record([Sighting(prospect: fuller, source: "b", seenAt: date(2))]) == [.duplicate(id: id)])
        #expect(try names(store, "backerei ingenieur") == ["Jürgen Müller"])
        // What the prospect has already is kept, and a later card's other organisation is not searched.
        var other = bare
        other.organization = "Konditorei"
        _ = try store.record([Sighting(prospect: other, source: "c", seenAt: date(3))])
        #expect(try names(store, "konditorei").isEmpty)

        #expect(try store.addNote(.id(id), "Große Pläne", author: "ana", at: date(4)))
        #expect(try names(store, "GROSSE plane") == ["Jürgen Müller"])
        #expect(try store.changeTags(.email("jm@example.de"), adding: ["Année", "demo"], removing: []))
        #expect(try names(store, "annee") == ["Jürgen Müller"])
        #expect(try store.changeTags(.id(id), adding: [], removing: ["Année"]))
        #expect(try names(store, "annee").isEmpty)
        #expect(try names(store, "demo") == ["Jürgen Müller"])

        guard case .edited = try store.edit(.id(id), ProspectEdit(name: "Ólafur Jónsson", email: "oj@example.is"))
        else { throw StoreError.corrupt("expected an edit") }
        #expect(try names(store, "muller").isEmpty)
        #expect(try names(store, "jm@example").isEmpty)
        #expect(try names(store, "olafur oj@example backerei plane demo") == ["Ólafur Jónsson"])
    }

    /// `count(_:)` counts what `forEach` picks, whatever the page.
    @Test(arguments: StoreKind.allCases)
    func countsAgreeWithTheList(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let people = [
            ("Jürgen Müller", "jm@example.de"), ("Anna Muller", "anna@example.com"),
            ("Bob Stone", "bob@muller.example"),
            ("Zoë", "zoe@example.com"),
        ]
        let sightings = people.map { name, email in
            Sighting(prospect: Prospect(name: name, email: email), source: email, seenAt: date(1))
        }
        _ = try store.record(sightings)
        #expect(try store.setContacted(.email("anna@example.com"), true))
        #expect(try store.setRating(.email("zoe@example.com"), .hot))
        let queries = [
            ProspectQuery(), ProspectQuery(search: "muller"), ProspectQuery(filter: .contacted, search: "muller"),
            ProspectQuery(filter: .uncontacted, search: "MÜLLER"), ProspectQuery(rating: .hot),
            ProspectQuery(search: "nobody"), ProspectQuery(search: "muller", limit: 1, offset: 1),
        ]
        for query in queries {
            var all = query
            all.limit = nil
            all.offset = 0
            #expect(try store.count(query) == store.list(all).count, "\(query)")
        }
        #expect(try store.count(ProspectQuery(search: "muller")) == 3)
        #expect(try store.count(ProspectQuery(filter: .contacted, search: "muller")) == 1)
    }

    /// A store written by the previous release (schema version 3, made with its own SQL) gains the key of every
    /// prospect, from its fields, notes and tags, in the one migration.
    @Test(arguments: StoreKind.allCases)
    func aVersion3StoreGetsItsSearchKeysInPlace(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let rows = [
            """
            INSERT INTO prospects (name, email, email_key, contacted, created_at, last_seen_at, scan_count, \
            first_source, name_key, sort_key, organization, title) VALUES \
            ('Jürgen Müller', 'JM@Example.de', 'jm@example.de', TRUE, 1000, 1000, 1, 'a', 'jürgen müller', \
            'jurgen muller', 'Bäckerei Ost', 'Chef'), \
            ('Ann Lee', 'ann@example.com', 'ann@example.com', FALSE, 2000, 2000, 1, 'b', 'ann lee', 'ann lee', NULL, \
            NULL)
            """,
            "INSERT INTO notes (prospect_id, written_at, author, text) VALUES (2, 5, 'ana', 'Große Pläne')",
            "INSERT INTO notes (prospect_id, written_at, author, text) VALUES (2, 6, 'bo', 'call in May')",
            "INSERT INTO tags (prospect_id, tag) VALUES (2, 'Année'), (2, 'vip')",
        ]
        switch kind {
        case .sqlite:
            try fixture.executeRaw(
                [SQLiteSchema.version1, SQLiteSchema.version2, SQLiteSchema.version3] + rows + [
                    "PRAGMA user_version = 3"
                ])
        case .postgres:
            try fixture.executeRaw(
                PostgresSchema.version1 + PostgresSchema.version2 + PostgresSchema.version3 + rows + [
                    "CREATE TABLE schema_version (version integer NOT NULL)", "INSERT INTO schema_version VALUES (3)",
                ])
        }
        #expect(try !fixture.columns(of: "prospects").contains("search_key"))
        let store = try fixture.open()
        #expect(try fixture.columns(of: "prospects").contains("search_key"))
        #expect(try store.count() == 2)
        #expect(try names(store, "muller backerei chef") == ["Jürgen Müller"])
        #expect(try names(store, "jm@example") == ["Jürgen Müller"])
        #expect(try names(store, "grosse") == ["Ann Lee"])
        #expect(try names(store, "may annee vip") == ["Ann Lee"])
        #expect(try store.count(ProspectQuery(filter: .contacted, search: "e")) == 1)
        // The migrated key is the one a new prospect with the same fields gets.
        _ = try store.record([
            Sighting(
                prospect: Prospect(
                    name: "Jürgen Müller", email: "jm2@example.de", organization: "Bäckerei Ost", title: "Chef"),
                source: "c", seenAt: date(3))
        ])
        #expect(try names(store, "jurgen backerei") == ["Jürgen Müller", "Jürgen Müller"])
    }
}
