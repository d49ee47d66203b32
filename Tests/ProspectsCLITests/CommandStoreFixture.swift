import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport

/// A real SQLite store in a temporary folder holding `prospects`, all seen once from `cards.png` on 2026-12-01 14:30
/// UTC, and a way to run CLI commands on it as functions, with the time zone set to UTC.
struct CommandStoreFixture {
    let folder: TemporaryDirectory
    let store: String
    let environment: [String: String]

    init(
        _ prospects: [Prospect], event: String? = nil, collectedBy: String? = nil,
        environment: [String: String] = [:]
    ) throws {
        folder = try TemporaryDirectory()
        store = folder.file("prospects.sqlite")
        let seenAt = Date(timeIntervalSince1970: 1_796_135_400)
        _ = try SQLiteStore(path: store).record(
            prospects.map {
                Sighting(prospect: $0, source: "cards.png", seenAt: seenAt, event: event, collectedBy: collectedBy)
            })
        self.environment = environment.merging(["PROSPECTS_STORE": store]) { _, store in store }
        setenv("TZ", "UTC", 1)
        tzset()
    }

    func run(_ argv: [String], answers: [String]? = nil) -> CommandRun {
        CommandRun(argv, environment: environment, answers: answers)
    }
}
