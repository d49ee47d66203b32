import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import ProspectsWeb
import QRDecoding
import Testing
import WebTestSupport

@testable import ProspectsService

/// The pages and forms by raw requests, over a real SQLite store: what each shows, and what each form changes.
@Suite struct WebPagesTests {
    /// The names of the rows a list page shows, in order.
    static func rowNames(_ page: String) -> [String] {
        page.components(separatedBy: "<td class=\"name\"><a href=\"/leads/").dropFirst().map { part in
            let afterTag = part.drop { $0 != ">" }.dropFirst()
            return String(afterTag.prefix { $0 != "<" })
        }
    }

    @Test func theListShowsTabsWithCountsSortsAndSearches() throws {
        let web = try WebFixture(leads: sampleLeads)
        let grace = try #require(try web.leads()["Grace Hopper"])
        #expect(try web.post("/leads/\(grace.id)/mark", [("contacted", "true")]).status == 303)
        let everyone = try web.get("/").text
        #expect(everyone.contains("Everyone <span class=\"count\">12</span>"))
        #expect(everyone.contains("Contacted <span class=\"count\">1</span>"))
        #expect(everyone.contains("Uncontacted <span class=\"count\">11</span>"))
        #expect(Self.rowNames(everyone).prefix(3) == ["Ada Lovelace", "Björn Ødegård", "Grace Hopper"])
        #expect(Self.rowNames(try web.get("/?order=reverse").text).first == "Person 9")
        #expect(Self.rowNames(try web.get("/?sort=recent").text).first == "Person 9", "loaded last")
        #expect(Self.rowNames(try web.get("/?sort=recent&order=reverse").text).first == "Ada Lovelace")
        #expect(Self.rowNames(try web.get("/?tab=contacted").text) == ["Grace Hopper"])
        #expect(!Self.rowNames(try web.get("/?tab=uncontacted").text).contains("Grace Hopper"))
        let search = try web.get("/?q=BJORN").text
        #expect(Self.rowNames(search) == ["Björn Ødegård"], "case and diacritics ignored")
        #expect(search.contains("Everyone <span class=\"count\">1</span>"), "counts follow the search")
        #expect(Self.rowNames(try web.get("/?q=navy").text) == ["Grace Hopper"], "organisation searched")
        #expect(try web.get("/?q=nobody").text.contains("No lead matches"))
    }

    @Test func theListPagesByFiftyWithPreviousAndNextLinks() throws {
        let leads = (1...120).map { Prospect(name: "Lead \(1000 + $0)", email: "lead\($0)@example.com") }
        let web = try WebFixture(leads: leads)
        let first = try web.get("/").text
        #expect(Self.rowNames(first).count == 50)
        #expect(first.contains("1–50 of 120"))
        #expect(first.contains("href=\"/?page=2\" rel=\"next\""))
        #expect(!first.contains("rel=\"prev\""))
        let third = try web.get("/?page=3").text
        #expect(Self.rowNames(third) == (101...120).map { "Lead \(1000 + $0)" })
        #expect(third.contains("href=\"/?page=2\" rel=\"prev\""))
        #expect(!third.contains("rel=\"next\""))
    }

    @Test func markingManyAndDeletingWithConfirmation() throws {
        let web = try WebFixture(leads: sampleLeads)
        let leads = try web.leads()
        let ada = try #require(leads["Ada Lovelace"]).id
        let grace = try #require(leads["Grace Hopper"]).id
        let marked = try web.post(
            "/mark", [("contacted", "true"), ("id", "\(ada)"), ("id", "\(grace)"), ("return", "/?tab=uncontacted")])
        #expect(marked.status == 303)
        #expect(marked.header("Location") == "/?tab=uncontacted")
        #expect(try web.leads()["Ada Lovelace"]?.isContacted == true)
        #expect(try web.leads()["Grace Hopper"]?.isContacted == true)
        let asked = try web.post("/delete", [("id", "\(ada)"), ("id", "\(grace)"), ("return", "/")])
        #expect(asked.status == 200)
        #expect(asked.text.contains("Delete these 2 leads?"))
        #expect(try web.store().count() == 12, "asking deletes nothing")
        let deleted = try web.post("/delete", [("id", "\(ada)"), ("id", "\(grace)"), ("confirmed", "true")])
        #expect(deleted.status == 303)
        #expect(try web.store().count() == 10)
        #expect(try web.leads()["Ada Lovelace"] == nil)
    }

    @Test func aLeadsPageShowsEveryFieldAndHistoryAndSetsAndClearsItsReminder() throws {
        let web = try WebFixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"])
        let page = try web.get("/leads/\(ada.id)").text
        for text in ["Ada Lovelace", "ada@example.org", "Analytical Engines", "Scan history", "test"] {
            #expect(page.contains(text), "\(text)")
        }
        #expect(try web.get("/leads/999999").status == 404)
        let set = try web.post("/leads/\(ada.id)/remind", [("at", "2030-05-04T10:30")])
        #expect(set.status == 303)
        #expect(set.header("Location") == "/leads/\(ada.id)")
        let reminder = try #require(try web.leads()["Ada Lovelace"]?.remindAt)
        #expect(reminder == ReminderTimeCheck.local("2030-05-04 10:30"))
        #expect(try web.post("/leads/\(ada.id)/remind", [("in", "2d")]).status == 303)
        let inTwoDays = try #require(try web.leads()["Ada Lovelace"]?.remindAt)
        #expect(abs(inTwoDays.timeIntervalSinceNow - 2 * 86_400) < 120)
        #expect(try web.post("/leads/\(ada.id)/remind", [("in", "soon")]).status == 400)
        #expect(try web.post("/leads/\(ada.id)/remind", [("clear", "true")]).status == 303)
        #expect(try web.leads()["Ada Lovelace"]?.remindAt == nil)
    }

    @Test func theRemindersPageGroupsByWhenTheyFallDue() throws {
        let web = try WebFixture(leads: sampleLeads)
        let store = try web.store()
        let now = Date()
        _ = try store.setReminder(.email("ada@example.org"), at: now.addingTimeInterval(-3600))
        _ = try store.setReminder(.email("grace@example.org"), at: now.addingTimeInterval(3 * 86_400))
        _ = try store.setReminder(.email("person1@example.com"), at: now.addingTimeInterval(20 * 86_400))
        _ = try store.setReminder(.email("person2@example.com"), at: now.addingTimeInterval(90 * 86_400))
        let page = try web.get("/reminders").text
        let texts = [
            "Overdue (1)", "Ada Lovelace", "Next 7 days (1)", "Grace Hopper", "Next 30 days (1)", "Person 1",
            "Later (1)", "Person 2",
        ]
        let order = texts.compactMap { page.range(of: $0)?.lowerBound }
        #expect(order.count == texts.count)
        #expect(order == order.sorted())
        // "In a day" moves an overdue reminder in place, and comes back to the reminders.
        let ada = try #require(try web.leads()["Ada Lovelace"]).id
        let moved = try web.post("/leads/\(ada)/remind", [("in", "1d"), ("return", "/reminders")])
        #expect(moved.header("Location") == "/reminders")
        let inADay = try #require(try web.leads()["Ada Lovelace"]?.remindAt)
        #expect(abs(inADay.timeIntervalSinceNow - 86_400) < 120)
        #expect(try web.get("/reminders").text.contains("Next 7 days (2)"))
    }

    @Test func anUploadOfSeveralPicturesGoesThroughIngestAndSaysWhatEachDid() throws {
        let web = try WebFixture(leads: [Prospect(name: "Ada Lovelace", email: "ada@example.org")])
        let token = try web.csrfToken()
        var body = MultipartBody()
        body.add(field: "csrf", value: token)
        body.add(
            file: "pictures", fileName: "new.png", contentType: "image/png",
            content: PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net"))
        body.add(
            file: "pictures", fileName: "known.png", contentType: "image/png",
            content: PNGFixtures.contactCode("Ada Lovelace\nada@example.org"))
        body.add(file: "pictures", fileName: "notes.png", contentType: "image/png", content: Array("hello".utf8))
        body.add(
            file: "pictures", fileName: "bomb.png", contentType: "image/png",
            content: PNGFixtures.hugeDimensionsHeader())
        let posted = try web.request(
            "POST", "/scan", headers: [("Content-Type", body.contentType)], body: body.finished)
        #expect(posted.status == 303)
        #expect(posted.header("Location") == "/scan")
        let page = try web.get("/scan").text
        #expect(page.contains("<strong>new.png</strong>: added: Hedy Lamarr &lt;hedy@example.net&gt;"))
        #expect(page.contains("<strong>known.png</strong>: already in the list: Ada Lovelace &lt;ada@example.org&gt;"))
        #expect(page.contains("<strong>notes.png</strong>: rejected: "))
        let bomb = try #require(page.range(of: "<strong>bomb.png</strong>: rejected: "))
        let refusal = "a 30,000 × 30,000 picture (900 MP) is over the 50 MP limit<"
        #expect(
            page[bomb.upperBound...].prefix(200).contains(refusal),
            "refused before decoding, as the CLI does, and with no command-line option named")
        #expect(try web.store().count() == 2)
        let hedy = try #require(try web.leads()["Hedy Lamarr"])
        #expect(hedy.firstSource.hasSuffix("new.png"))
        #expect(!(try web.get("/scan").text.contains("new.png")), "the outcomes are shown once")
    }

    @Test func theMeCardIsAQRCodeThatReadsBackAsTheCard() throws {
        let web = try WebFixture()
        let query = "name=Ada%20Lovelace&email=ada%40example.org&organization=Analytical%20Engines"
        let page = try web.get("/me?\(query)").text
        #expect(page.contains("MECARD:"))
        #expect(page.contains("src=\"/me/card.png?"))
        let png = try web.get("/me/card.png?\(query)")
        #expect(png.status == 200)
        #expect(png.header("Content-Type") == "image/png")
        let symbols = try QRScanner().scan(PNGReader().read(png.body))
        let text = try #require(symbols.first?.text)
        #expect(text.contains("Ada Lovelace"))
        #expect(text.contains("ada@example.org"))
        let svg = try web.get("/me/card.svg?\(query)")
        #expect(svg.header("Content-Type") == "image/svg+xml")
        #expect(svg.text.hasPrefix("<svg"))
        #expect(try web.get("/me?name=Ada&email=not-an-address").text.contains("id=\"card-error\""))
    }

    @Test func theEventStreamSaysWhenAnotherProcessChangesTheStore() throws {
        let web = try WebFixture(leads: sampleLeads)
        let client = try RawHTTPClient(port: web.port)
        defer { client.close() }
        try client.send(RawHTTPClient.requestBytes("GET", "/events", host: "127.0.0.1:\(web.port)"))
        let head = try client.readHead()
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream")
        _ = try client.readChunk()  // retry:
        // Another process's connection, as `prospects ingest` would write.
        _ = try web.store().record([
            Sighting(
                prospect: Prospect(name: "New Person", email: "new@example.org"), source: "elsewhere", seenAt: Date())
        ])
        var received = ""
        while !(received.contains("event: change") && received.hasSuffix("\n\n")) {
            guard let chunk = try client.readChunk() else { break }
            received += String(decoding: chunk, as: UTF8.self)
        }
        #expect(received.contains("event: change"))
        // The event names the generation; a list rendered since shows it, so its live script reloads nothing.
        let event = try #require(received.components(separatedBy: "event: change\n").last)
        let named = try #require(event.split(separator: "\n").first { $0.hasPrefix("data: ") }).dropFirst(6)
        #expect(Int64(named) != nil, "the generation, a number")
        #expect(try web.get("/").text.contains("data-generation=\"\(named)\""))
    }
}

/// Local times as the reminder form sends them.
enum ReminderTimeCheck {
    static func local(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        formatter.timeZone = .current
        return formatter.date(from: text)
    }
}
