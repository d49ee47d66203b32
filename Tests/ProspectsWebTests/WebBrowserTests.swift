import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest
import ProspectsTestSupport
import ProspectsWeb
import QRDecoding
import Testing
import WebTestSupport

@testable import ProspectsService

/// `prospects serve` on the demo leads (SampleImages/ ingested) in a real headless Chromium, at a phone's and a
/// desktop's size, clicking what a person clicks; a screenshot of each page at each size in .build/screenshots.
@Suite(.serialized) struct WebBrowserTests {
    /// A server on a store holding the demo's leads, as `Scripts/demo` makes it, plus one lead named as markup.
    static func demoServer() throws -> WebFixture {
        let web = try WebFixture(leads: [
            Prospect(name: "<img src=x onerror=alert(1)>", email: "xss@example.org", organization: "<b>bold</b>")
        ])
        let service = ProspectsService(location: .sqlite(path: web.storePath))
        let ingester = try service.ingester(workers: 1, options: .init(), stopOnInterrupt: false)
        _ = try ingester.ingest([ProspectsProcess.sampleImages().path]) { _ in }
        return web
    }

    /// Whether the header is one row: every item shown starts above the bottom of the first, none is cut off at
    /// the right, nothing scrolls sideways.
    static func headerIsOneRow(_ session: WebDriverSession) throws -> Bool {
        try session.execute(
            """
            var header = document.querySelector('header.top');
            var items = Array.from(header.children).filter(function (e) { return e.offsetParent !== null; });
            var first = items[0].getBoundingClientRect();
            return items.every(function (e) {
              var box = e.getBoundingClientRect();
              return box.top < first.bottom && box.right <= header.clientWidth;
            }) && header.scrollWidth <= header.clientWidth;
            """) as? Bool == true
    }

    /// Opens the list's sort, filter and export options where they are folded (on a phone).
    static func openOptions(_ session: WebDriverSession) throws {
        try session.execute("document.getElementById('options').open = true")
    }

    func rowNames(_ session: WebDriverSession) throws -> [String] {
        try session.execute(
            "return Array.from(document.querySelectorAll('td.name a')).map(function (a) { return a.textContent; })")
            as? [String] ?? []
    }

    @Test(arguments: [(390, 844, true), (1280, 800, false)])
    func walksEveryPage(width: Int, height: Int, mobile: Bool) throws {
        let web = try Self.demoServer()
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: width, height: height, mobile: mobile)
        defer { session.close() }
        let size = "\(width)x\(height)"
        let base = web.baseURL

        // The list: the demo's leads, tabs with counts.
        try session.navigate(to: base + "/")
        let everyone = try web.store().count()
        #expect(everyone == 14, "13 demo leads and the markup one")
        #expect(try rowNames(session).contains("Paul Hudson"))
        #expect(try rowNames(session).contains("<img src=x onerror=alert(1)>"), "markup shows as text")
        #expect(try session.execute("return document.querySelectorAll('img').length") as? Int == 0)
        #expect(try session.openDialogText() == nil, "no script ran")
        #expect(try session.text(of: session.findElement("a[data-tab=everyone] .count")) == "\(everyone)")
        let scrolls = try session.execute("return document.documentElement.scrollWidth > window.innerWidth") as? Bool
        #expect(scrolls == false, "nothing wider than the screen")
        #expect(try Self.headerIsOneRow(session), "the header fits in one row")
        try session.screenshot(to: "\(screenshotFolder)/list-\(size).png")

        // Sort: newest first, then Z–A (on a phone, behind the options' fold).
        try Self.openOptions(session)
        try session.click(try session.findElement("a[data-sort=recent]"))
        try waitUntil("newest first") { try session.currentURL().hasSuffix("/?sort=recent") }
        let newest = try rowNames(session)
        try Self.openOptions(session)
        try session.click(try session.findElement("a[data-sort=recent-reverse]"))
        try waitUntil("oldest first") { try session.currentURL().contains("order=reverse") }
        #expect(try rowNames(session) == newest.reversed())
        try Self.openOptions(session)
        try session.click(try session.findElement("a[data-sort=name-reverse]"))
        try waitUntil("Z–A") { try session.currentURL().hasSuffix("/?order=reverse") }
        let zToA = try rowNames(session)
        #expect(zToA == zToA.sorted { $0.lowercased() > $1.lowercased() } || zToA.first == "Zoë Müller")

        // Search.
        try session.navigate(to: base + "/")
        try session.type("lovelace", into: try session.findElement("input[name=q]"))
        try session.click(try session.findElement("form[role=search] button"))
        try waitUntil("the search") { try rowNames(session) == ["Ada Lovelace"] }
        try session.screenshot(to: "\(screenshotFolder)/search-\(size).png")

        // Mark Ada contacted from her row; the Contacted tab then shows her.
        try session.click(try session.findElement("tr button.mark"))
        try waitUntil("Ada marked") { try session.text(of: session.findElement("td.contacted")) == "Yes" }
        #expect(try session.currentURL().hasSuffix("/?q=lovelace"), "303 back to the same list")
        try session.navigate(to: base + "/")
        try session.click(try session.findElement("a[data-tab=contacted]"))
        try waitUntil("the contacted tab") { try session.currentURL().contains("tab=contacted") }
        #expect(try rowNames(session) == ["Ada Lovelace"])
        #expect(try session.text(of: session.findElement("a[data-tab=contacted] .count")) == "1")
        try session.screenshot(to: "\(screenshotFolder)/contacted-\(size).png")

        // Select two and delete them, after the confirmation page.
        try session.navigate(to: base + "/?q=hopper")
        let grace = try #require(try web.leads()["Grace Hopper"]).id
        try session.navigate(to: base + "/")
        let boxes = try session.findElements("input[type=checkbox][name=id]")
        try #require(boxes.count >= 2)
        try session.click(boxes[0])
        try session.click(boxes[1])
        try session.click(try session.findElement("#delete-selected"))
        try waitUntil("the confirmation") { try session.findElements("#confirm-delete").count == 1 }
        #expect(try session.findElements("ul.to-delete li").count == 2)
        try session.screenshot(to: "\(screenshotFolder)/confirm-delete-\(size).png")
        #expect(try web.store().count() == everyone, "nothing deleted before the confirmation")
        try session.click(try session.findElement("#confirm-delete"))
        try waitUntil("the list again") { try session.findElements("table.leads").count == 1 }
        #expect(try web.store().count() == everyone - 2)

        // A lead's page, and a reminder set on it.
        try session.navigate(to: base + "/leads/\(grace)")
        try session.waitForPage("/leads/\(grace)", showing: "h1.lead-name")
        #expect(try session.text(of: session.findElement("h1.lead-name")) == "Grace Hopper")
        try session.type("2d", into: try session.findElement("#remind input[name=in]"))
        try session.click(try session.findElement("#remind button.primary"))
        try waitUntil("the reminder") { try web.leads()["Grace Hopper"]?.remindAt != nil }
        try waitUntil("the page again") { try session.findElements("#remind button[name=clear]").count == 1 }
        try session.screenshot(to: "\(screenshotFolder)/lead-\(size).png")
        try session.navigate(to: base + "/reminders")
        #expect(try session.text(of: session.findElement("#week")).contains("Grace Hopper"))
        try session.screenshot(to: "\(screenshotFolder)/reminders-\(size).png")

        // Upload a PNG through the file input.
        let picture = web.folder.file("hedy-\(size).png")
        try Data(PNGFixtures.contactCode("Hedy Lamarr \(size)\nhedy.\(width)@example.net")).write(
            to: URL(fileURLWithPath: picture))
        try session.navigate(to: base + "/scan")
        let input = try session.findElement("input[type=file]")
        #expect(
            try session.execute(
                "return arguments[0].getAttribute('capture')", [["element-6066-11e4-a52e-4f735466cecf": input.id]])
                as? String == "environment")
        try session.type(picture, into: input)
        try session.click(try session.findElement("form.stack button.primary"))
        try waitUntil("the outcomes") { try session.findElements("#outcomes li.added").count == 1 }
        #expect(try session.text(of: session.findElement("#outcomes li.added")).contains("added: Hedy Lamarr \(size)"))
        try session.screenshot(to: "\(screenshotFolder)/scan-\(size).png")
        #expect(try web.leads()["Hedy Lamarr \(size)"] != nil)

        // Me: the card's QR code on screen reads back through zbar.
        try session.navigate(to: base + "/me")
        try session.type("Ada Lovelace", into: try session.findElement("input[name=name]"))
        try session.type("ada@example.org", into: try session.findElement("input[name=email]"))
        try session.click(try session.findElement("form.stack button.primary"))
        try waitUntil("the card") {
            try session.execute(
                "var i = document.getElementById('card-qr'); return !!i && i.complete && i.naturalWidth > 0")
                as? Bool == true
        }
        let shot = "\(screenshotFolder)/me-\(size).png"
        try session.execute("document.getElementById('card-qr').scrollIntoView()")
        try session.screenshot(to: shot)
        let image = try PNGReader().read([UInt8](try Data(contentsOf: URL(fileURLWithPath: shot))))
        let symbols = try QRScanner().scan(image)
        #expect(symbols.map(\.text) == ["Ada Lovelace\nada@example.org"])
        #expect(try session.openDialogText() == nil)
    }

    @Test func theListReloadsWhenAnotherProcessAddsALead() throws {
        let web = try WebFixture(leads: sampleLeads)
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: 1280, height: 800)
        defer { session.close() }
        try session.navigate(to: web.baseURL + "/")
        // Wait for the event stream to be open, then write from another connection, as `prospects ingest` would.
        try session.execute("window.__beforeReload = true")
        let prospects = ProspectsProcess.executable.path
        let picture = web.folder.file("late.png")
        try Data(PNGFixtures.contactCode("Late Arrival\nlate@example.org")).write(to: URL(fileURLWithPath: picture))
        usleep(500_000)
        let ingest = Process()
        ingest.executableURL = URL(fileURLWithPath: prospects)
        ingest.arguments = ["ingest", "--store", web.storePath, "--quiet", picture]
        ingest.standardOutput = FileHandle.nullDevice
        ingest.standardError = FileHandle.nullDevice
        try ingest.run()
        ingest.waitUntilExit()
        #expect(ingest.terminationStatus == 0)
        try waitUntil("the list to reload") { try rowNames(session).contains("Late Arrival") }
        #expect(try session.execute("return window.__beforeReload === undefined") as? Bool == true, "reloaded")
    }
}
