import Foundation
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

    @Test(arguments: StoreKind.allCases)
    func aNewStoreIsNoMigration(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        #expect(try fixture.open().migration == nil)
    }
}
