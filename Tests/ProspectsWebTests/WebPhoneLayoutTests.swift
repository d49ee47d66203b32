import Foundation
import ProspectStore
import ProspectsCore
import ProspectsWeb
import Testing
import WebTestSupport

/// The phone layout in headless Chromium at 390 × 844 on the demo's leads: a bottom bar with Scan in the middle,
/// six leads on the first screen, sort, filters and export folded, bulk actions once a lead is selected, every tap
/// target at least 44 × 44 CSS px, inputs with 16 px text, no page wider than the screen; the desktop keeps its table.
@Suite(.serialized) struct WebPhoneLayoutTests {
    /// The pages a staffer and an admin open, by path.
    static func pages(lead: Int64) -> [(name: String, path: String)] {
        [
            ("list", "/"), ("scan", "/scan"), ("reminders", "/reminders"), ("me", "/me"), ("users", "/users"),
            ("import", "/import"), ("lead", "/leads/\(lead)"),
        ]
    }

    /// Every control shown (a checkbox by its label) smaller than 44 × 44 CSS px, and every field whose text is
    /// smaller than 16 px, described for the failure message.
    static func smallTargets(_ session: WebDriverSession) throws -> [String] {
        try session.execute(
            """
            var small = [];
            document.querySelectorAll('a, button, summary, select, textarea, input:not([type=hidden])')
              .forEach(function (e) {
                var target = e.matches('input[type=checkbox], input[type=radio]') ? (e.closest('label') || e) : e;
                if (!target.checkVisibility({ visibilityProperty: true })) return;
                var box = target.getBoundingClientRect();
                var name = e.tagName.toLowerCase() + ' “' + (e.textContent || e.name || '').trim().slice(0, 30) + '”';
                if (box.width < 44 || box.height < 44) {
                  small.push(name + ' ' + Math.round(box.width) + '×' + Math.round(box.height));
                }
                if (e.matches('input, select, textarea') && parseFloat(getComputedStyle(e).fontSize) < 16) {
                  small.push(name + ' text ' + getComputedStyle(e).fontSize);
                }
              });
            return small;
            """) as? [String] ?? ["the script failed"]
    }

    static func isShown(_ session: WebDriverSession, _ selector: String) throws -> Bool {
        try session.execute("return document.querySelector(arguments[0]).checkVisibility()", [selector]) as? Bool
            == true
    }

    static func scrollsSideways(_ session: WebDriverSession) throws -> Bool {
        try session.execute("return document.scrollingElement.scrollWidth > window.innerWidth") as? Bool ?? true
    }

    @Test func aPhoneGetsTheBottomBarSixLeadsAndBigTargets() throws {
        let web = try WebBrowserTests.demoServer()
        let grace = try #require(try web.leads()["Grace Hopper"]).id
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: 390, height: 844, mobile: true)
        defer { session.close() }

        try session.navigate(to: web.baseURL + "/")
        // Six leads wholly inside the first screen, above the bottom bar.
        let visibleRows =
            try session.execute(
                """
                var bar = document.querySelector('nav.bottom').getBoundingClientRect();
                return Array.from(document.querySelectorAll('table.leads tbody tr')).filter(function (row) {
                  var box = row.getBoundingClientRect();
                  return box.top >= 0 && box.bottom <= bar.top;
                }).length;
                """) as? Int ?? 0
        #expect(visibleRows >= 6, "\(visibleRows) lead rows on the first screen")
        // The bottom bar: five entries, Scan the middle one and the largest, at least 44 px high.
        let bar =
            try session.execute(
                """
                var items = Array.from(document.querySelectorAll('nav.bottom > a, nav.bottom > details > summary'));
                var scan = document.querySelector('nav.bottom a.scan').getBoundingClientRect();
                return [items.length, items.indexOf(document.querySelector('nav.bottom a.scan')),
                  Math.round(scan.height), Math.round(scan.width),
                  Math.max.apply(null, items.map(function (e) { return e.getBoundingClientRect().height; })),
                  Math.round(scan.left + scan.width / 2)];
                """) as? [Int] ?? []
        try #require(bar.count == 6)
        #expect(bar[0] == 5 && bar[1] == 2, "Leads · Reminders · Scan · Me · More")
        #expect(bar[2] >= 44 && bar[2] >= bar[4], "Scan is \(bar[3])×\(bar[2]) px, the largest")
        #expect(abs(bar[5] - 195) <= 2, "Scan centred")
        let barPosition = "return getComputedStyle(document.querySelector('nav.bottom')).position"
        #expect(try session.execute(barPosition) as? String == "fixed")
        // Sort, filters and export folded behind one control; bulk actions hidden until a lead is selected.
        #expect(try session.execute("return document.getElementById('options').open") as? Bool == false)
        #expect(try !Self.isShown(session, "a[data-sort=recent]"))
        #expect(try !Self.isShown(session, ".bulk"))
        #expect(try Self.smallTargets(session) == [], "the list's tap targets")
        try session.screenshot(to: "\(screenshotFolder)/phone-list-390x844.png")

        try session.click(try session.findElement("td.pick label"))
        try waitUntil("the bulk bar") {
            try Self.isShown(session, ".bulk")
        }
        #expect(
            try session.execute("return getComputedStyle(document.querySelector('.bulk')).position") as? String
                == "fixed")
        #expect(try Self.smallTargets(session) == [], "the bulk bar's tap targets")
        try session.screenshot(to: "\(screenshotFolder)/phone-selected-390x844.png")

        try session.navigate(to: web.baseURL + "/")
        try session.click(try session.findElement("details.options > summary"))
        try waitUntil("the options") {
            try Self.isShown(session, "a[data-sort=recent]")
        }
        #expect(try Self.smallTargets(session) == [], "the options' tap targets")
        #expect(try !Self.scrollsSideways(session))
        try session.screenshot(to: "\(screenshotFolder)/phone-options-390x844.png")
        try session.click(try session.findElement("a[data-sort=recent]"))
        try waitUntil("newest first") { try session.currentURL().hasSuffix("/?sort=recent") }

        // More holds the admin pages.
        try session.click(try session.findElement("nav.bottom details.more > summary"))
        try waitUntil("the menu") {
            try Self.isShown(session, "nav.bottom .menu a[href=\"/users\"]")
        }
        #expect(try Self.smallTargets(session) == [], "the menu's tap targets")
        try session.screenshot(to: "\(screenshotFolder)/phone-more-390x844.png")

        for page in Self.pages(lead: grace) {
            try session.navigate(to: web.baseURL + page.path)
            #expect(try !Self.scrollsSideways(session), "\(page.path) fits the screen's width")
            #expect(try Self.smallTargets(session) == [], "\(page.path)'s tap targets and fields")
            let scanHeight = "return document.querySelector('nav.bottom a.scan').getBoundingClientRect().height"
            #expect(try session.execute(scanHeight) as? Double ?? 0 >= 44, "\(page.path): Scan at least 44 px high")
            try session.screenshot(to: "\(screenshotFolder)/phone-\(page.name)-390x844.png")
        }
        #expect(try session.openDialogText() == nil)
    }

    @Test func theDesktopKeepsItsTable() throws {
        let web = try WebBrowserTests.demoServer()
        let grace = try #require(try web.leads()["Grace Hopper"]).id
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: 1280, height: 800)
        defer { session.close() }
        try session.navigate(to: web.baseURL + "/")
        #expect(try Self.isShown(session, "table.leads thead"))
        #expect(try !Self.isShown(session, "nav.bottom"))
        #expect(try Self.isShown(session, ".bulk"))
        #expect(
            try !Self.isShown(session, "details.options > summary"), "no fold on a desktop")
        try session.screenshot(to: "\(screenshotFolder)/desktop-list-1280x800.png")
        try session.click(try session.findElement("a[data-sort=recent]"))
        try waitUntil("newest first") { try session.currentURL().hasSuffix("/?sort=recent") }
        for page in Self.pages(lead: grace) {
            try session.navigate(to: web.baseURL + page.path)
            #expect(try !Self.scrollsSideways(session), "\(page.path) fits the window's width")
            #expect(try Self.isShown(session, "header.top a[href=\"/scan\"]"), "the header's links")
        }
    }

    /// With accounts: the sign-in page and the Users page with its rows (481 px wide on a 390 px screen before).
    @Test func signInAndUsersFitAPhone() throws {
        let web = try WebFixture(
            leads: sampleLeads,
            accounts: [
                ("margaret.hamilton.admin", .admin, "correct horse battery"), ("sam", .staff, "correct horse battery"),
            ]
        ) { $0.requiresSignIn = true }
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: 390, height: 844, mobile: true)
        defer { session.close() }
        try session.navigate(to: web.baseURL + "/signin")
        #expect(try !Self.scrollsSideways(session))
        #expect(try Self.smallTargets(session) == [], "the sign-in page's tap targets and fields")
        #expect(try session.countElements("nav.bottom") == 0, "no sections before signing in")
        try session.screenshot(to: "\(screenshotFolder)/phone-signin-390x844.png")
        try session.type("margaret.hamilton.admin", into: try session.findElement("input[name=name]"))
        try session.type("correct horse battery", into: try session.findElement("input[name=password]"))
        try session.click(try session.findElement("form.stack button.primary"))
        try session.waitForPage("/", showing: "table.leads")
        try session.navigate(to: web.baseURL + "/users")
        #expect(try session.countElements("table.users tbody tr") == 2)
        #expect(try !Self.scrollsSideways(session), "the Users page fits the screen")
        #expect(try Self.smallTargets(session) == [], "the Users page's tap targets and fields")
        try session.screenshot(to: "\(screenshotFolder)/phone-users-accounts-390x844.png")
        // Signing out from the bottom bar's More.
        try session.click(try session.findElement("nav.bottom details.more > summary"))
        try session.click(try session.findElement("nav.bottom .menu form button"))
        try waitUntil("the sign-in page") { try session.currentURL().hasSuffix("/signin") }
    }
}
