import Foundation
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectStore

/// Opening a store of an older schema migrates it, says so once, and for SQLite keeps the file as it was.
@Suite("ProspectStore conformance: migration with a way back")
struct MigrationBackupTests {
    @Test(arguments: StoreKind.allCases)
    func anOlderStoreIsMigratedOnceAndSaysSo(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        try fixture.executeRaw(ProspectStoreConformanceTests.version1Script(kind))
        let store = try fixture.open()
        let migration = try #require(store.migration)
        #expect(migration.from == 1 && migration.to == ProspectSQL.schemaVersion)
        #expect(migration.message.contains("migrated from schema version 1 to \(ProspectSQL.schemaVersion)"))
        switch fixture.location {
        case .sqlite(let path):
            let backup = try #require(migration.backup)
            #expect(backup == path + ".schema-1.bak")
            let attributes = try FileManager.default.attributesOfItem(atPath: backup)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            // The copy is the store as it was: version 1, its two rows, none of the later tables.
            let old = try SQLiteDatabase(path: backup, create: false)
            #expect(try old.query("PRAGMA user_version") { row throws(StoreError) in try row.int(0) } == [1])
            #expect(try old.query("SELECT count(*) FROM prospects") { row throws(StoreError) in try row.int(0) } == [2])
            #expect(
                try old.query("SELECT count(*) FROM sqlite_master WHERE name = 'scans'") {
                    row throws(StoreError) in try row.int(0)
                } == [0])
        case .postgres:
            #expect(migration.backup == nil)
        }
        #expect(try store.count() == 2)
        #expect(try fixture.open().migration == nil, "once migrated, opening again says nothing")
    }

    /// Version 6 to 7: the `other_phones` table comes, and nothing moves: a lead keeps its phone, and the SQLite
    /// copy kept beside the store is version 6 as it was.
    @Test(arguments: StoreKind.allCases)
    func aVersion6StoreGainsOtherPhonesAndKeepsEveryPhone(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let first = try fixture.open()
        let card = Prospect(name: "Ada Lovelace", email: "ada@example.com", phone: "+44 20 7946 0000")
        _ = try first.record([Sighting(prospect: card, source: "ada.png", seenAt: date(1_700_000_000_000))])
        try fixture.executeRaw(
            ["DROP TABLE roster_entries", "DROP TABLE events", "DROP TABLE other_phones"]
                + (kind == .sqlite ? ["PRAGMA user_version = 6"] : ["UPDATE schema_version SET version = 6"]))
        #expect(try fixture.columns(of: "other_phones").isEmpty)

        let store = try fixture.open()
        let migration = try #require(store.migration)
        #expect(migration.from == 6 && migration.to == ProspectSQL.schemaVersion)
        #expect(try fixture.columns(of: "other_phones") == ["prospect_id", "position", "phone"])
        let ada = try #require(try store.prospect(.email("ada@example.com")))
        #expect(ada.prospect.phone == "+44 20 7946 0000" && ada.prospect.otherPhones.isEmpty)
        if case .sqlite(let path) = fixture.location {
            let backup = try #require(migration.backup)
            #expect(backup == path + ".schema-6.bak")
            let old = try SQLiteDatabase(path: backup, create: false)
            #expect(try old.query("PRAGMA user_version") { row throws(StoreError) in try row.int(0) } == [6])
            #expect(
                try old.query("SELECT phone FROM prospects") { row throws(StoreError) in try row.text(0) } == [
                    "+44 20 7946 0000"
                ])
        } else {
            #expect(migration.backup == nil)
        }

        // The migrated store takes a lead's several phones.
        var grace = Prospect(name: "Grace Hopper", email: "grace@example.com", phone: "+1 202 555 0100")
        grace.otherPhones = ["+1 202 555 0101", "+1 202 555 0102"]
        _ = try store.record([Sighting(prospect: grace, source: "grace.png", seenAt: date(1_700_000_001_000))])
        #expect(try store.prospect(.email("grace@example.com"))?.prospect.otherPhones == grace.otherPhones)
        #expect(try fixture.open().migration == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func aNewStoreIsNoMigration(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        #expect(try fixture.open().migration == nil)
    }
}
