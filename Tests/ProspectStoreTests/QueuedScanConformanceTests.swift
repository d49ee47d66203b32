import Foundation
import ProspectStore
import ProspectsCore
import ProspectsService
import Testing

/// Scans a phone queued while offline, applied by the service on both stores: each exactly once, whatever is sent
/// again; a payload the parser refuses stored nowhere, with its reason.
@Suite("ProspectStore conformance: queued scans applied exactly once")
struct QueuedScanConformanceTests {
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_780_000_000 + seconds) }

    static let batch: [QueuedScan] = [
        QueuedScan(
            id: "7D444840-9DC0-11D1-B245-5FFDCE74FAD2", payload: "Ada King\nada@example.org", scannedAt: date(1),
            rating: .hot, tags: ["booth", "vip"], note: "Wants a demo", event: "Expo 2026", collectedBy: "sam"),
        QueuedScan(
            id: "8e3b2c1a-0000-4000-8000-000000000002", payload: "MECARD:N:Bob;EMAIL:bob@example.com;;",
            scannedAt: date(2)),
        QueuedScan(id: "8e3b2c1a-0000-4000-8000-000000000003", payload: "https://example.com/", scannedAt: date(3)),
        QueuedScan(id: "not-a-uuid", payload: "Eve\neve@example.com", scannedAt: date(4)),
        QueuedScan(
            id: "8e3b2c1a-0000-4000-8000-000000000005", payload: "Ada\nADA@example.org", scannedAt: date(5),
            rating: .cold, note: "Second visit", collectedBy: "lee"),
    ]

    @Test(arguments: StoreKind.allCases)
    func eachScanIsAppliedOnceWhateverIsSentAgain(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let service = ProspectsService(location: fixture.location)
        let answers = try service.applyQueuedScans(Self.batch, now: Self.date(100))
        guard case .stored(let ada, new: true) = answers[0], case .stored(let bob, new: true) = answers[1] else {
            Issue.record("the first two are new leads: \(answers)")
            return
        }
        guard case .rejected(let error) = answers[2] else {
            Issue.record("a URL is no contact: \(answers[2])")
            return
        }
        #expect(error.kind == "unsupportedPayload")
        #expect(answers[3] == .badID)
        #expect(answers[4] == .stored(id: ada, new: false), "the same address: a second scan of Ada")

        let store = try fixture.open()
        let before = try Self.snapshot(store)
        #expect(before.count == 2)
        let first = try #require(try store.prospect(.id(ada)))
        #expect(first.rating == .hot, "the first scan's rating; the second's applies only where there is none")
        #expect(first.tags == ["booth", "vip"])
        #expect(first.scanCount == 2)
        #expect(first.firstEvent == "Expo 2026" && first.firstCollectedBy == "sam")
        #expect(try store.notes(of: ada).map(\.text) == ["Wants a demo", "Second visit"])
        #expect(try store.notes(of: ada).map(\.author) == ["sam", "lee"])
        #expect(try store.prospect(.id(bob))?.scanCount == 1)

        // The answer was lost; the phone sends the whole batch again, twice.
        for _ in 0..<2 {
            let again = try service.applyQueuedScans(Self.batch, now: Self.date(200))
            #expect(again[0] == .alreadyStored(id: ada) && again[1] == .alreadyStored(id: bob))
            #expect(again[4] == .alreadyStored(id: ada))
            #expect(again[2] == answers[2] && again[3] == .badID)
        }
        #expect(try Self.snapshot(store) == before, "nothing changed")
    }

    /// Every lead with its scan count, rating, tags and notes: what a second sending must leave alone.
    static func snapshot(_ store: any ProspectStore) throws -> [String] {
        try store.list(ProspectQuery()).map { lead in
            let notes = try store.notes(of: lead.id).map(\.text).joined(separator: "|")
            return "\(lead.key) \(lead.scanCount) \(lead.rating) \(lead.tags) \(notes)"
        }
    }
}
