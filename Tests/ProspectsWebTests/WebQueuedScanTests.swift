import Foundation
import ProspectStore
import ProspectsCore
import ProspectsService
import ProspectsWeb
import Testing
import WebTestSupport

@testable import ProspectsService

/// `POST /scans/sync` on a real server, by raw requests: a phone's queued scans applied once each, whatever is sent
/// again, and answered one by one.
@Suite struct WebQueuedScanTests {
    static let batch = """
        [{"id":"1b4e28ba-2fa1-11d2-883f-0016d3cca427","payload":"Grace Hopper\\ngrace@example.com",\
        "scannedAt":"2026-12-03T09:15:00.000Z","rating":"hot","tags":["booth"],"note":"Wants the COBOL demo"},
        {"id":"1b4e28ba-2fa1-11d2-883f-0016d3cca428","payload":"https://example.com/badge/1",\
        "scannedAt":"2026-12-03T09:16:00.000Z"},
        {"id":"1b4e28ba-2fa1-11d2-883f-0016d3cca429","payload":"X\\nx@example.com","scannedAt":"yesterday"}]
        """

    @Test func eachScanIsStoredOnceAndAnsweredInOrder() throws {
        let web = try WebFixture(leads: [])
        let first = try web.post("/scans/sync", [("scans", Self.batch)])
        #expect(first.status == 200)
        #expect(first.header("Content-Type")?.hasPrefix("application/json") == true)
        let results = try Self.results(first.text)
        #expect(results.map { $0["status"] as? String } == ["stored", "rejected", "invalid"], "\(first.text)")
        #expect(results[0]["new"] as? Bool == true)
        #expect((results[1]["reason"] as? String)?.isEmpty == false)

        let grace = try #require(try web.leads()["Grace Hopper"])
        #expect(grace.rating == .hot && grace.tags == ["booth"])
        #expect(try web.store().notes(of: grace.id).map(\.text) == ["Wants the COBOL demo"])

        // The answer was lost: the same batch again changes nothing.
        let again = try Self.results(try web.post("/scans/sync", [("scans", Self.batch)]).text)
        #expect(again.first?["status"] as? String == "alreadyStored")
        #expect((again.first?["lead"] as? NSNumber)?.int64Value == grace.id)
        #expect(try web.leads()["Grace Hopper"]?.scanCount == 1)
        #expect(try web.store().notes(of: grace.id).count == 1)
        #expect(try web.leads().count == 1)
    }

    @Test func aBodyThatIsNoListOfScansIsRefusedWithAReason() throws {
        let web = try WebFixture(leads: [])
        let answer = try web.post("/scans/sync", [("scans", "{not json")])
        #expect(answer.status == 400)
        #expect(answer.text.contains("no JSON array of scans"))
        #expect(try web.get("/scans/sync").status == 405)
    }

    /// A scan holding the stamp of who was signed in on the phone is collected by that account, whoever's session
    /// sends it; an altered stamp, or one whose account is gone, is collected by the sender and says why.
    @Test func aScanIsCollectedByItsStampsAccountNotBySender() throws {
        let password = "correct horse battery"
        let bob = try WebFixture(accounts: [
            ("ada", .staff, password), ("bob", .staff, password), ("cy", .admin, password),
        ]) {
            $0.requiresSignIn = true
        }
        func stamp(of name: String) throws -> String {
            let phone = WebFixture.sharingServer(of: bob)
            try phone.signIn(name, password)
            let answer = try JSONSerialization.jsonObject(with: Data(try phone.get("/scans/token").text.utf8))
            return try #require((answer as? [String: Any])?["collector"] as? String)
        }
        let (ada, cy) = (try stamp(of: "ada"), try stamp(of: "cy"))
        try ProspectsService(location: bob.location).removeAccount(named: "cy")
        var forged = ada.split(separator: ".").map(String.init)
        forged[3] = "626f62"  // "bob" in hex, under ada's signature
        try bob.signIn("bob", password)
        let scans: [[String: String]] = [
            ["collector": ada], ["collector": forged.joined(separator: ".")], ["collector": cy], [:],
        ].enumerated().map { index, fields in
            fields.merging([
                "id": "2b4e28ba-2fa1-11d2-883f-0016d3cca42\(index)",
                "payload": "Guest \(index)\nguest\(index)@example.org",
                "scannedAt": "2026-12-03T09:1\(index):00.000Z",
            ]) { kept, _ in kept }
        }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: scans), as: UTF8.self)
        let results = try Self.results(try bob.post("/scans/sync", [("scans", text)], token: try bob.csrfToken()).text)
        #expect(results.map { $0["status"] as? String } == Array(repeating: "stored", count: 4))
        #expect(results.map { $0["collectedBy"] as? String } == ["ada", "bob", "bob", "bob"])
        #expect(results.map { $0["collectorRefused"] as? String } == [nil, "badSignature", "unknownAccount", nil])
        let service = ProspectsService(location: bob.location)
        let collectors = try (0..<4).map { try service.details(of: .email("guest\($0)@example.org"))?.collectors }
        #expect(collectors == [["ada"], ["bob"], ["bob"], ["bob"]])
    }

    static func results(_ text: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return try #require(object?["results"] as? [[String: Any]], "\(text)")
    }
}
