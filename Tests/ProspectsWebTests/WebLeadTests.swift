import Foundation
import ProspectStore
import ProspectsCore
import ProspectsWeb
import Testing
import WebTestSupport

@testable import ProspectsService

/// A lead's page by raw requests: every field it has and no empty row, and its forms (edit, note, rating, tags).
@Suite struct WebLeadTests {
    @Test func theLeadPageShowsEveryFieldItHasAndNoEmptyRow() throws {
        let web = try WebFixture(leads: [
            Prospect(
                name: "Ada Lovelace", email: "ada@example.org", phone: "+44 20 7946 0000", title: "Analyst",
                otherEmails: ["ada@engines.example"], otherPhones: ["+44 7700 900123", "+44 20 7946 0001"]),
            Prospect(name: "Grace Hopper", email: "grace@example.org"),
        ])
        let store = try web.store()
        _ = try store.record([
            Sighting(
                prospect: Prospect(name: "Ada Lovelace", email: "ada@example.org"), source: "booth.png",
                seenAt: Date(), event: "Expo 2026", collectedBy: "sam")
        ])
        _ = try store.setRating(.email("ada@example.org"), .hot)
        _ = try store.changeTags(.email("ada@example.org"), adding: ["demo"], removing: [])
        _ = try store.addNote(.email("ada@example.org"), "Call back after the talk", author: "sam", at: Date())
        _ = try store.setReminder(.email("ada@example.org"), at: Date().addingTimeInterval(86_400))
        let ada = try #require(try web.leads()["Ada Lovelace"])
        let page = try web.get("/leads/\(ada.id)").text
        for text in [
            "<dt>Title</dt><dd>Analyst</dd>", "<dt>Other emails</dt><dd>ada@engines.example</dd>",
            "<dt>Phone</dt>", "<dt>Other phones</dt><dd>+44 7700 900123, +44 20 7946 0001</dd>",
            "<dt>Rating</dt><dd>hot</dd>", "<dt>Tags</dt><dd>demo</dd>", "<dt>Reminder</dt>",
            "Call back after the talk", "<strong class=\"author\">sam</strong>", "Expo 2026",
            "<td data-label=\"Collected by\">sam</td>", "booth.png",
        ] {
            #expect(page.contains(text), "\(text)")
        }
        let grace = try #require(try web.leads()["Grace Hopper"])
        let plain = try web.get("/leads/\(grace.id)").text
        for row in ["Organisation", "Phone", "Other phones", "Title", "Other emails", "Rating", "Tags", "Reminder"] {
            #expect(!plain.contains("<dt>\(row)</dt>"), "no empty \(row) row")
        }
    }

    @Test func editingCorrectsFieldsReKeysAndNamesTheLeadAClashingAddressBelongsTo() throws {
        let web = try WebFixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"])
        let fields = [
            ("name", "Ada King"), ("email", "ada@example.org"), ("phone", "+44 20 7946 0001"),
            ("organization", ""), ("title", "Countess"),
        ]
        let edited = try web.post("/leads/\(ada.id)/edit", fields)
        #expect(edited.status == 303)
        #expect(edited.header("Location") == "/leads/\(ada.id)")
        let after = try #require(try web.leads()["Ada King"])
        #expect(after.id == ada.id)
        #expect(after.prospect.organization == nil, "an empty organisation clears it")
        #expect(after.prospect.title == "Countess")
        #expect(after.prospect.phone == "+44 20 7946 0001")
        // A new address re-keys the lead.
        var moved = fields
        moved[1] = ("email", "ada.king@example.org")
        #expect(try web.post("/leads/\(ada.id)/edit", moved).status == 303)
        #expect(try web.store().prospect(.email("ada.king@example.org"))?.id == ada.id)
        #expect(try web.store().prospect(.email("ada@example.org")) == nil)
        // Grace's address is refused, naming her, and nothing changes.
        let grace = try #require(try web.leads()["Grace Hopper"])
        var clash = moved
        clash[0] = ("name", "Someone Else")
        clash[1] = ("email", "GRACE@example.org")
        let refused = try web.post("/leads/\(ada.id)/edit", clash)
        #expect(refused.status == 409)
        #expect(refused.text.contains("is already prospect #\(grace.id)"))
        #expect(refused.text.contains("href=\"/leads/\(grace.id)\""))
        #expect(refused.text.contains("value=\"Someone Else\""), "what was typed stays in the form")
        #expect(try web.leads()["Ada King"]?.prospect.email == "ada.king@example.org")
        var invalid = moved
        invalid[1] = ("email", "not an address")
        #expect(try web.post("/leads/\(ada.id)/edit", invalid).status == 400)
        #expect(try web.post("/leads/999999/edit", moved).status == 404)
    }

    @Test func notesRatingAndTags() throws {
        let web = try WebFixture(leads: sampleLeads) { $0.environment = ["LOGNAME": "booth-laptop"] }
        let ada = try #require(try web.leads()["Ada Lovelace"])
        #expect(try web.post("/leads/\(ada.id)/note", [("text", "Wants <b>pricing</b>\nby Friday")]).status == 303)
        let notes = try web.store().notes(of: ada.id)
        #expect(notes.map(\.text) == ["Wants <b>pricing</b>\nby Friday"])
        #expect(notes.first?.author == "booth-laptop", "without sign-in: the login name of whoever runs serve")
        let page = try web.get("/leads/\(ada.id)").text
        #expect(page.contains("Wants &lt;b&gt;pricing&lt;/b&gt;"))
        #expect(try web.post("/leads/\(ada.id)/note", [("text", "   ")]).status == 400)

        #expect(try web.post("/leads/\(ada.id)/rate", [("rating", "warm")]).status == 303)
        #expect(try web.leads()["Ada Lovelace"]?.rating == .warm)
        #expect(try web.post("/leads/\(ada.id)/rate", [("rating", "lukewarm")]).status == 400)
        #expect(try web.post("/leads/\(ada.id)/rate", [("rating", "none")]).status == 303)
        #expect(try web.leads()["Ada Lovelace"]?.rating == ProspectRating.none)

        #expect(try web.post("/leads/\(ada.id)/tags", [("add", "demo, pricing")]).status == 303)
        #expect(try web.leads()["Ada Lovelace"]?.tags == ["demo", "pricing"])
        #expect(try web.post("/leads/\(ada.id)/tags", [("remove", "demo")]).status == 303)
        #expect(try web.leads()["Ada Lovelace"]?.tags == ["pricing"])
        #expect(try web.post("/leads/\(ada.id)/tags", [("add", " ")]).status == 400)
    }

    @Test func theLeadFormsNeedTheFormsToken() throws {
        let web = try WebFixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"])
        _ = try web.get("/")
        for (action, fields) in [
            ("note", [("text", "hi")]), ("rate", [("rating", "hot")]), ("tags", [("add", "x")]),
            ("edit", [("name", "Mallory"), ("email", "ada@example.org")]),
        ] {
            #expect(try web.post("/leads/\(ada.id)/\(action)", fields, token: "forged").status == 403, "\(action)")
        }
        let after = try #require(try web.leads()["Ada Lovelace"])
        #expect(after.rating == ProspectRating.none && after.tags.isEmpty)
        #expect(try web.store().notes(of: ada.id).isEmpty)
    }
}
