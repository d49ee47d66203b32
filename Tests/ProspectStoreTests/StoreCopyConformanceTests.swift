import Foundation
import ProspectStore
import ProspectsCore
import ProspectsService
import ProspectsTestSupport
import Testing

/// `prospects copy` between every kind of store: the whole store, ids and all, verified, or nothing.
@Suite("ProspectStore conformance: copy")
struct StoreCopyConformanceTests {
    @Test(arguments: RoundTripConformanceTests.directions)
    func copiesTheWholeStore(from: StoreKind, to: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let source = try StoreFixture(from)
        let target = try StoreFixture(to)
        defer { withExtendedLifetime((source, target)) {} }
        let store = try source.open()
        try RoundTripConformanceTests.fillEveryField(store)
        let gone = try store.record([
            Sighting(prospect: Prospect(name: "Gone", email: "gone@example.com"), source: "g.png", seenAt: date(9))
        ])
        guard case .inserted(let goneID) = gone.first else { throw StoreError.corrupt("\(gone)") }
        #expect(try store.delete(.id(goneID)))
        _ = try store.record([
            LedgeredSightings(
                entry: LedgerEntry(
                    contentHash: String(repeating: "ab", count: 32), fileName: "list.csv", outcome: .inserted,
                    prospects: 1, processedAt: date(10)),
                sightings: [
                    Sighting(prospect: Prospect(name: "Bob", email: "bob@example.com"), source: "x", seenAt: date(11))
                ])
        ])
        let account = Account(name: "sam", role: .admin, passwordHash: "pbkdf2$1$salt$hash", createdAt: date(12))
        #expect(try (store as? any AccountStore)?.addAccount(account) == true)

        var progress: [String] = []
        let summary = try StoreCopy(from: source.location, to: target.location).run { table, _ in
            progress.append(table)
        }
        #expect(progress == StoreTable.copied.map(\.name))
        let rows = Dictionary(uniqueKeysWithValues: summary.tables.map { ($0.name, $0.rows) })
        #expect(rows["prospects"] == 3 && rows["notes"] == 3 && rows["tags"] == 2 && rows["files"] == 1)
        #expect(rows["accounts"] == 1 && rows["scans"] == 2 && rows["other_emails"] == 2)
        #expect(rows["other_phones"] == 2)

        // The same export, ids included.
        #expect(
            try RoundTripConformanceTests.export(target, to: folder.file("copy.jsonl"))
                == RoundTripConformanceTests.export(source, to: folder.file("source.jsonl")))
        let copy = try target.open()
        #expect(try (copy as? any AccountStore)?.accounts() == [account])
        #expect(try copy.ledgerEntry(contentHash: String(repeating: "ab", count: 32))?.fileName == "list.csv")
        // New ids continue above every id the source handed out, the deleted one's included.
        let next = try copy.record([
            Sighting(prospect: Prospect(name: "New", email: "new@example.com"), source: "n.png", seenAt: date(13))
        ])
        guard case .inserted(let newID) = next.first else { throw StoreError.corrupt("\(next)") }
        #expect(newID > goneID)
        #expect(try copy.addNote(.id(newID), "a note after the copy", author: "kim", at: date(14)))
    }

    @Test(arguments: StoreKind.allCases)
    func aTargetWithProspectsIsRefusedAndLeftAsItWas(kind: StoreKind) throws {
        let source = try StoreFixture(.sqlite)
        let target = try StoreFixture(kind)
        defer { withExtendedLifetime((source, target)) {} }
        try RoundTripConformanceTests.fillEveryField(try source.open())
        _ = try target.open().record([sighting("Kept", "kept@example.com")])
        #expect {
            try StoreCopy(from: source.location, to: target.location).run()
        } throws: { error in
            guard case .targetNotEmpty(table: "prospects", rows: 1)? = error as? StoreCopy.Failure else { return false }
            return true
        }
        #expect(try target.open().list(ProspectQuery()).map(\.prospect.name) == ["Kept"])
        #expect {
            try StoreCopy(from: source.location, to: source.location).run()
        } throws: { error in
            guard case .sameStore? = error as? StoreCopy.Failure else { return false }
            return true
        }
    }

    /// A row the target cannot take (a NUL, which PostgreSQL cannot hold), after the prospects were written: the
    /// whole copy is rolled back.
    @Test func aCopyThatFailsPartWayLeavesTheTargetAsItWas() throws {
        let source = try StoreFixture(.sqlite)
        let target = try StoreFixture(.postgres)
        defer { withExtendedLifetime((source, target)) {} }
        try RoundTripConformanceTests.fillEveryField(try source.open())
        try source.executeRaw([
            "INSERT INTO files VALUES ('ff', 'bad' || char(0) || 'name', 'inserted', 1, 1)"
        ])
        #expect {
            try StoreCopy(from: source.location, to: target.location).run()
        } throws: { error in
            guard case .target? = error as? StoreCopy.Failure else { return false }
            return true
        }
        let store = try target.open()
        #expect(try store.count() == 0)
        #expect(try (store as? any CopyableStore)?.rowCount(of: StoreTable.copied[3]) == 0, "no notes either")
    }
}
