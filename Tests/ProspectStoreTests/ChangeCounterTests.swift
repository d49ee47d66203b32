import Foundation
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectStore

/// The store's change generation, which a server caches its pages by and its event streams poll: it moves once per
/// committed write transaction of any connection, on both stores.
@Suite struct ChangeCounterTests {
    private func card(_ name: String, _ email: String) -> Sighting {
        Sighting(prospect: Prospect(name: name, email: email), source: "t", seenAt: Date(timeIntervalSince1970: 1000))
    }

    @Test(arguments: StoreKind.allCases)
    func theGenerationMovesWhenAnotherConnectionCommits(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let watcher = try fixture.open()
        let writer = try fixture.open()
        var last = try #require(try watcher.changeCounter())
        #expect(try watcher.changeCounter() == last, "reading changes nothing")
        func expectMoved(_ what: String) throws {
            let now = try #require(try watcher.changeCounter())
            #expect(now != last, "\(what) moves the generation")
            last = now
        }
        _ = try writer.record([card("Ada Lovelace", "ada@example.org")])
        try expectMoved("an insert")
        _ = try writer.setContacted(.email("ada@example.org"), true)
        try expectMoved("marking contacted")
        _ = try writer.setReminder(.email("ada@example.org"), at: Date(timeIntervalSince1970: 5000))
        try expectMoved("a reminder")
        _ = try writer.setRating(.email("ada@example.org"), .hot)
        try expectMoved("a rating")
        _ = try writer.addNote(.email("ada@example.org"), "call", author: "sam", at: Date())
        try expectMoved("a note")
        _ = try writer.changeTags(.email("ada@example.org"), adding: ["vip"], removing: [])
        try expectMoved("a tag")
        _ = try writer.edit(.email("ada@example.org"), ProspectEdit(name: "Ada King"))
        try expectMoved("an edit")
        _ = try writer.delete(.email("ada@example.org"))
        try expectMoved("a delete")
        #expect(try writer.changeCounter() == last, "every connection reads the same generation")
    }

    /// Once per transaction, not per row: a bulk load pays one small update per commit.
    @Test(arguments: StoreKind.allCases)
    func oneTransactionMovesTheGenerationOnce(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let before = try #require(try store.changeCounter())
        _ = try store.record((1...50).map { card("Lead \($0)", "lead\($0)@example.org") })
        #expect(try store.changeCounter() == before + 1)
        if let grouping = store as? any TransactionGrouping {
            try grouping.inOneTransaction { () throws(StoreError) in
                for index in 51...60 { _ = try store.record([card("Lead \(index)", "lead\(index)@example.org")]) }
            }
            #expect(try store.changeCounter() == before + 2)
        }
    }

    /// A store written by the previous release (schema 4, made with its own SQL) keeps every row of every table, and
    /// gains the generation and the sessions table.
    @Test(arguments: StoreKind.allCases)
    func aVersion4StoreKeepsEveryRow(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let rows = [
            """
            INSERT INTO prospects (name, email, email_key, contacted, created_at, last_seen_at, scan_count, \
            first_source, name_key, sort_key, organization, title, rating, search_key) VALUES \
            ('Jürgen Müller', 'JM@Example.de', 'jm@example.de', TRUE, 1000, 1000, 2, 'a', 'jürgen müller', \
            'jurgen muller', 'Bäckerei Ost', 'Chef', 'hot', 'jurgen muller'), \
            ('Ann Lee', 'ann@example.com', 'ann@example.com', FALSE, 2000, 2000, 1, 'b', 'ann lee', 'ann lee', NULL, \
            NULL, 'none', 'ann lee')
            """,
            "INSERT INTO scans (prospect_id, source, seen_at) VALUES (1, 'c', 3000)",
            "INSERT INTO notes (prospect_id, written_at, author, text) VALUES (2, 5, 'ana', 'Große Pläne')",
            "INSERT INTO tags (prospect_id, tag) VALUES (2, 'vip')",
            "INSERT INTO other_emails (prospect_id, position, email) VALUES (1, 0, 'j@example.de')",
            "INSERT INTO files (content_hash, file_name, outcome, prospects, processed_at) VALUES ('ab', 'x.png', "
                + "'inserted', 1, 1000)",
        ]
        switch kind {
        case .sqlite:
            try fixture.executeRaw(
                [SQLiteSchema.version1, SQLiteSchema.version2, SQLiteSchema.version3, SQLiteSchema.version4] + rows
                    + ["PRAGMA user_version = 4"])
        case .postgres:
            try fixture.executeRaw(
                PostgresSchema.version1 + PostgresSchema.version2 + PostgresSchema.version3 + PostgresSchema.version4
                    + rows + [
                        "CREATE TABLE schema_version (version integer NOT NULL)",
                        "INSERT INTO schema_version VALUES (4)",
                    ])
        }
        let store = try fixture.open()
        #expect(try store.count() == 2)
        let jurgen = try #require(try store.prospect(.email("jm@example.de")))
        #expect(jurgen.prospect.name == "Jürgen Müller" && jurgen.isContacted && jurgen.scanCount == 2)
        #expect(jurgen.rating == .hot && jurgen.prospect.organization == "Bäckerei Ost")
        #expect(jurgen.prospect.otherEmails == ["j@example.de"])
        #expect(try store.history(of: jurgen.id).count == 2)
        let ann = try #require(try store.prospect(.email("ann@example.com")))
        #expect(try store.notes(of: ann.id).map(\.text) == ["Große Pläne"])
        #expect(try store.tags(of: ann.id) == ["vip"])
        #expect(try store.ledgerEntry(contentHash: "ab")?.fileName == "x.png")
        let generation = try #require(try store.changeCounter())
        _ = try store.setContacted(.id(ann.id), true)
        #expect(try store.changeCounter() == generation + 1)
        // And the sessions table is there.
        let sessions = try #require(store as? any WebSessionStore)
        let session = WebSession(key: "k", csrfToken: "t", createdAt: Date(), lastUsedAt: Date())
        try sessions.addSession(session, capacity: 10)
        #expect(try sessions.session(key: "k")?.csrfToken == "t")
    }
}
