import Foundation
import ProspectStore
import ProspectsCore
import ProspectsService
import Testing
import WebTestSupport

/// Reminders coming due while a page is open: the count in the tab's title, from `GET /reminders/due`.
@Suite(.serialized) struct WebReminderBadgeTests {
    @Test func theDueCountAndTheNextReminderComeFromTheServer() throws {
        let web = try WebFixture(leads: sampleLeads)
        let service = ProspectsService(location: .sqlite(path: web.storePath))
        let leads = try web.leads()
        let ada = try #require(leads["Ada Lovelace"]).id
        let grace = try #require(leads["Grace Hopper"]).id
        _ = try service.setReminder(.id(ada), at: Date().addingTimeInterval(-60))
        _ = try service.setReminder(.id(grace), at: Date().addingTimeInterval(3_600))
        let response = try web.get("/reminders/due")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(answer["due"] as? Int == 1)
        #expect((answer["leads"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ada Lovelace"])
        let nextIn = try #require(answer["nextIn"] as? Double)
        #expect(nextIn > 3_500 && nextIn <= 3_600)
    }

    @Test func theTabTitleCountsAReminderWhenItComesDue() throws {
        let web = try WebFixture(leads: sampleLeads)
        let service = ProspectsService(location: .sqlite(path: web.storePath))
        let ada = try #require(try web.leads()["Ada Lovelace"]).id
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: 1280, height: 800)
        defer { session.close() }
        // Due in a few seconds, on a page that does not reload itself: the script asks again when it comes due.
        _ = try service.setReminder(.id(ada), at: Date().addingTimeInterval(5))
        try session.navigate(to: web.baseURL + "/me")
        // Before it is due (unless loading the page took longer than that) the title has no count.
        var first: String?
        for _ in 0..<300 where first == nil {
            first = try session.execute("return document.body.getAttribute('data-due')") as? String
            if first == nil { usleep(50_000) }
        }
        if first == "0" { #expect(try session.title() == "Me · Prospects") }
        var title = ""
        for _ in 0..<300 where title != "(1) Me · Prospects" {
            usleep(100_000)
            title = try session.title()
        }
        #expect(title == "(1) Me · Prospects")
        #expect(try session.findElements("#notify-reminders").count == 1)
        #expect(try session.openDialogText() == nil)
    }
}
