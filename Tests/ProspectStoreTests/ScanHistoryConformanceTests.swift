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
}
