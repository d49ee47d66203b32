import Foundation
import ProspectStore
import ProspectsCore
import ProspectsService
import Testing
import WebTestSupport

/// Reminders in the browser's time zone: a staffer's 09:00 is stored as the instant it is where they are, and shown
/// back to them as 09:00; a form without the zone (no script) is read in the server's zone, as before.
@Suite(.serialized) struct WebReminderTimeZoneTests {
    static func utc(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    /// A browser in `zone` sets 09:00 on 10 December 2026 (winter) on a lead's page: stored as `stored` (UTC), and the
    /// lead's page, its form and the list show 09:00 again.
    @Test(arguments: [
        ("Europe/Paris", "2026-12-10T08:00:00Z", "CET"), ("America/New_York", "2026-12-10T14:00:00Z", "EST"),
    ])
    func aReminderSetAtNineIsTheBrowsersNine(zone: String, stored: String, abbreviation: String) throws {
        let web = try WebFixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"]).id
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: 390, height: 844, mobile: true)
        defer { session.close() }
        try session.setTimeZone(zone)
        try session.navigate(to: web.baseURL + "/leads/\(ada)")
        try waitUntil("the zone field filled") {
            try session.execute("return document.querySelector('#remind input[name=tz]').value") as? String == zone
        }
        try session.execute("document.querySelector('#remind input[name=at]').value = '2026-12-10T09:00'")
        try session.click(try session.findElement("#remind button.primary"))
        try waitUntil("the reminder") { try web.leads()["Ada Lovelace"]?.remindAt != nil }
        #expect(try web.leads()["Ada Lovelace"]?.remindAt == Self.utc(stored))

        try session.waitForPage("/leads/\(ada)", showing: "dd.reminder time")
        #expect(try session.text(of: session.findElement("dd.reminder time")) == "2026-12-10 09:00 \(abbreviation)")
        #expect(
            try session.execute("return document.querySelector('#remind input[name=at]').value") as? String
                == "2026-12-10T09:00", "the form holds the browser's time")
        // Every other time on the page too (added, last seen, the scan history), not the server's UTC.
        let times =
            "return Array.from(document.querySelectorAll('time[data-utc]')).map(function (t) { return t.textContent; })"
        let shown = try session.execute(times) as? [String] ?? []
        #expect(shown.count >= 4 && shown.allSatisfy { !$0.hasSuffix(" UTC") }, "\(shown)")
        try session.screenshot(to: "\(screenshotFolder)/reminder-\(zone.replacingOccurrences(of: "/", with: "-")).png")
        try session.navigate(to: web.baseURL + "/?q=lovelace")
        #expect(
            try session.text(of: session.findElement("td.reminder time")).hasSuffix("2026-12-10 09:00 \(abbreviation)"))
    }

    /// Without the script's field the server's zone applies, as before; a zone nobody has is ignored, not an error.
    @Test func aFormWithoutAZoneIsReadInTheServersZone() throws {
        let web = try WebFixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"]).id
        let serverTime = try #require(ReminderTime.parseDate("2026-12-10 09:00"))
        for zone in [nil, "", "Mars/Olympus_Mons"] {
            let fields = [("at", "2026-12-10T09:00")] + (zone.map { [("tz", $0)] } ?? [])
            #expect(try web.post("/leads/\(ada)/remind", fields).status == 303)
            #expect(try web.leads()["Ada Lovelace"]?.remindAt == serverTime, "tz: \(zone ?? "none")")
        }
        #expect(try web.post("/leads/\(ada)/remind", [("at", "2026-12-10T09:00"), ("tz", "Asia/Tokyo")]).status == 303)
        #expect(try web.leads()["Ada Lovelace"]?.remindAt == Self.utc("2026-12-10T00:00:00Z"))
    }
}
