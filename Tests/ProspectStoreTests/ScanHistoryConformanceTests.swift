import Foundation
import ProspectsCore
import Testing

@testable import ProspectStore

/// Each scan keeps its own event and collector, so a person met at two events shows both; run against both stores.
@Suite("ProspectStore conformance: events and collectors per scan")
struct ScanHistoryConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func everyScanOfTheHistoryKeepsItsEventAndCollector(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let ada = Prospect(name: "Ada", email: "ada@example.com")
        let first = Sighting(
            prospect: ada, source: "spring/1.png", seenAt: date(1_000), event: "Spring Fair", collectedBy: "ana")
        let second = Sighting(
            prospect: ada, source: "autumn/7.png", seenAt: date(2_000), event: "KubeCon EU 2026", collectedBy: "bo")
        let third = Sighting(prospect: ada, source: "desk/3.png", seenAt: date(3_000))
        guard case .inserted(let id)? = try store.record([first]).first else {
            Issue.record("expected an insert")
            return
        }
        _ = try store.record([second])
        _ = try store.record([third])
        #expect(
            try store.history(of: id) == [
                ScanRecord(source: "spring/1.png", seenAt: date(1_000), event: "Spring Fair", collectedBy: "ana"),
                ScanRecord(source: "autumn/7.png", seenAt: date(2_000), event: "KubeCon EU 2026", collectedBy: "bo"),
                ScanRecord(source: "desk/3.png", seenAt: date(3_000)),
            ])
        // Either event finds her, each collector too.
        for query in [
            ProspectQuery(event: "Spring Fair"), ProspectQuery(event: "KubeCon EU 2026"),
            ProspectQuery(collectedBy: "bo"),
        ] {
            #expect(try store.list(query).map(\.id) == [id])
        }
        #expect(try store.list(ProspectQuery(event: "Winter Expo")).isEmpty)
    }

    /// An upload's path renamed once the picture is archived: in the first sighting and in later scans, for the
    /// prospects named only.
    @Test(arguments: StoreKind.allCases)
    func aSourceIsRenamedForTheProspectsNamed(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let ada = Prospect(name: "Ada", email: "ada@example.com")
        let bo = Prospect(name: "Bo", email: "bo@example.com")
        guard
            case .inserted(let adaID)? = try store.record([Sighting(prospect: ada, source: "in/1", seenAt: date(1))])
                .first,
            case .inserted(let boID)? = try store.record([Sighting(prospect: bo, source: "in/1", seenAt: date(2))])
                .first
        else {
            Issue.record("expected two inserts")
            return
        }
        _ = try store.record([Sighting(prospect: ada, source: "in/2", seenAt: date(3))])
        try store.renameSource("in/1", to: "archive/1.png", prospects: [adaID])
        try store.renameSource("in/2", to: "archive/2.png", prospects: [adaID])
        try store.renameSource("in/9", to: "archive/9.png", prospects: [])
        #expect(try store.history(of: adaID).map(\.source) == ["archive/1.png", "archive/2.png"])
        #expect(try store.history(of: boID).map(\.source) == ["in/1"], "another prospect's scan keeps its name")
    }
}
