import Foundation
import ProspectStore
import ProspectsCore
import ProspectsWeb
import Testing
import WebTestSupport

/// Working a lead and the list's filters and export in headless Chromium, signed in as an admin, at a phone's and a
/// desktop's size (in `WebBrowserTests`, whose tests run one at a time).
extension WebBrowserTests {
    static func reference(_ element: WebDriverSession.Element) -> [String: String] {
        ["element-6066-11e4-a52e-4f735466cecf": element.id]
    }

    /// Replaces what a text field holds with `text`, as a person selecting it all and typing would.
    func retype(_ text: String, into selector: String, _ session: WebDriverSession) throws {
        let field = try session.findElement(selector)
        try session.execute("arguments[0].value = ''", [Self.reference(field)])
        try session.type(text, into: field)
    }

    @Test(arguments: [(390, 844, true), (1280, 800, false)])
    func editsALeadNotesRatesFiltersAndExports(width: Int, height: Int, mobile: Bool) throws {
        let web = try WebFixture(leads: sampleLeads, accounts: WebSignInTests.accounts) { $0.requiresSignIn = true }
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: width, height: height, mobile: mobile)
        defer { session.close() }
        let size = "\(width)x\(height)"
        let base = web.baseURL

        try session.navigate(to: base + "/signin")
        try session.type("ada", into: try session.findElement("input[name=name]"))
        try session.type("correct horse battery", into: try session.findElement("input[name=password]"))
        try session.click(try session.findElement("form button[type=submit]"))
        try waitUntil("signed in") { try session.findElements("table.leads").count == 1 }

        // Edit: a new name and a title.
        let ada = try #require(try web.leads()["Ada Lovelace"]).id
        try session.navigate(to: base + "/leads/\(ada)")
        try session.waitForPage("/leads/\(ada)", showing: "h1.lead-name")
        try retype("Ada King", into: "#edit input[name=name]", session)
        try retype("Countess", into: "#edit input[name=title]", session)
        try session.click(try session.findElement("#edit button.primary"))
        try waitUntil("the edit") { try session.text(of: session.findElement("h1.lead-name")) == "Ada King" }
        #expect(try web.leads()["Ada King"]?.prospect.title == "Countess")

        // A note, signed by the account.
        try session.type("Met at the booth <script>alert(1)</script>", into: try session.findElement("#notes textarea"))
        try session.click(try session.findElement("#notes button.primary"))
        try waitUntil("the note") { try session.findElements("ol.notes li").count == 1 }
        #expect(try session.text(of: session.findElement("ol.notes .author")) == "ada")
        #expect(try session.text(of: session.findElement("ol.notes .note-text")).contains("<script>"))
        #expect(try session.openDialogText() == nil, "the note shows as text")

        // Rated hot.
        try session.click(try session.findElement("#rating button[value=hot]"))
        try waitUntil("the rating") {
            try session.execute(
                "return document.querySelector('#rating button[value=hot]').getAttribute('aria-pressed')")
                as? String == "true"
        }
        #expect(try web.leads()["Ada King"]?.rating == .hot)
        try session.screenshot(to: "\(screenshotFolder)/lead-edited-\(size).png")

        // The list filtered by rating, with the filter form alone (no script needed).
        try session.navigate(to: base + "/")
        try WebBrowserTests.openOptions(session)
        try session.click(try session.findElement("#filters select[name=rating] option[value=hot]"))
        try session.click(try session.findElement("#filters button[type=submit]"))
        try waitUntil("the filter") { try session.currentURL().contains("rating=hot") }
        #expect(try rowNames(session) == ["Ada King"])
        #expect(try session.text(of: session.findElement("a[data-tab=everyone] .count")) == "1")
        let scrolls = try session.execute("return document.documentElement.scrollWidth > window.innerWidth") as? Bool
        #expect(scrolls == false, "nothing wider than the screen")
        try session.screenshot(to: "\(screenshotFolder)/filtered-\(size).png")

        // The admin's export of that filtered list: a download, not a page.
        try WebBrowserTests.openOptions(session)
        let link = try session.findElement("a[data-export=csv]")
        let href = try #require(try session.execute("return arguments[0].href", [Self.reference(link)]) as? String)
        #expect(href.hasSuffix("/export?format=csv&rating=hot"))
        let download = try #require(
            try session.execute(
                """
                var request = new XMLHttpRequest(); request.open('GET', arguments[0], false); request.send();
                return [String(request.status), request.getResponseHeader('Content-Disposition') || '',
                  request.getResponseHeader('Content-Type') || '', request.responseText];
                """, [href]) as? [String])
        #expect(download[0] == "200")
        #expect(download[1] == "attachment; filename=\"prospects.csv\"")
        #expect(download[2] == "text/csv; charset=utf-8")
        #expect(download[3].contains("Ada King") && !download[3].contains("Grace Hopper"))
        try session.click(link)
        usleep(300_000)
        #expect(try session.currentURL().contains("rating=hot"), "the download leaves the page where it was")
    }
}
