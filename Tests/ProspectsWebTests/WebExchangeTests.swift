import Foundation
import ProspectStore
import ProspectsCore
import Testing
import WebTestSupport

@testable import ProspectsService

/// Export and import by raw requests: the list as the list page filters it, in each format, as a download; a list
/// uploaded through the import path the CLI uses, reported in its words; admins only.
@Suite struct WebExchangeTests {
    @Test func theFilteredListDownloadsAsCSVvCardOrJSONLines() throws {
        let web = try WebFixture(leads: sampleLeads)
        _ = try web.store().setRating(.email("ada@example.org"), .hot)
        _ = try web.store().setRating(.email("grace@example.org"), .hot)
        let csv = try web.get("/export?format=csv&rating=hot&page=3")
        #expect(csv.status == 200)
        #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(csv.header("Content-Disposition") == "attachment; filename=\"prospects.csv\"")
        let lines = csv.text.split(separator: "\r\n")
        #expect(lines.count == 3, "the header and the two hot leads, whatever the page")
        #expect(lines.first?.hasPrefix("id,name,email") == true)
        #expect(csv.text.contains("Ada Lovelace") && csv.text.contains("Grace Hopper"))
        #expect(!csv.text.contains("Person 1"))
        let vcard = try web.get("/export?format=vcard&q=lovelace")
        #expect(vcard.header("Content-Type") == "text/vcard; charset=utf-8")
        #expect(vcard.header("Content-Disposition") == "attachment; filename=\"prospects.vcf\"")
        #expect(vcard.text.components(separatedBy: "BEGIN:VCARD").count == 2)
        let json = try web.get("/export?format=json")
        #expect(json.header("Content-Disposition") == "attachment; filename=\"prospects.jsonl\"")
        #expect(json.text.split(separator: "\n").count == 12)
        #expect(try web.get("/export?format=xls").status == 400)
        #expect(try web.get("/").text.contains("href=\"/export?format=csv\""), "the list links to its export")
        #expect(try web.get("/?rating=hot").text.contains("href=\"/export?format=csv&amp;rating=hot\""))
    }

    /// The download is streamed (chunked, no length known ahead) and whole: every lead once, in the list's order.
    @Test func aLargeExportIsStreamedWhole() throws {
        let leads = (1...3_000).map { Prospect(name: "Lead \($0)", email: "lead\($0)@example.com") }
        let web = try WebFixture(leads: leads)
        let csv = try web.get("/export?format=csv&sort=recent&order=reverse")
        #expect(csv.status == 200)
        #expect(csv.header("Transfer-Encoding")?.lowercased() == "chunked")
        #expect(csv.header("Content-Length") == nil)
        let lines = csv.text.split(separator: "\r\n")
        #expect(lines.count == 3_001)
        #expect(lines.dropFirst().first?.contains("lead1@example.com") == true, "oldest first")
        #expect(lines.last?.contains("lead3000@example.com") == true)
        #expect(Set(lines).count == 3_001, "no line twice")
    }

    @Test func aCRMProfileNamesItsColumnsAndItsFile() throws {
        let web = try WebFixture(leads: sampleLeads)
        _ = try web.store().setRating(.email("ada@example.org"), .hot)
        let hubspot = try web.get("/export?format=csv&profile=hubspot&rating=hot")
        #expect(hubspot.status == 200)
        #expect(hubspot.header("Content-Disposition") == "attachment; filename=\"prospects-hubspot.csv\"")
        let lines = hubspot.text.split(separator: "\r\n")
        #expect(lines.first?.hasPrefix("First Name,Last Name,Email,Phone Number,Company Name") == true)
        #expect(lines.count == 2 && lines[1].hasPrefix("Ada,Lovelace,ada@example.org"), "\(lines)")
        #expect(try web.get("/export?format=csv&profile=salesforce").text.contains("Lead Source"))
        #expect(try web.get("/export?format=csv&profile=excel").status == 400)
        #expect(try web.get("/export?format=json&profile=google").status == 400, "a profile is for CSV")
        #expect(try web.get("/").text.contains("href=\"/export?format=csv&amp;profile=google\""))
    }

    @Test func anUploadedListIsImportedOnceAndReportedInTheCLIsWords() throws {
        let web = try WebFixture(leads: [Prospect(name: "Ada Lovelace", email: "ada@example.org")])
        let csv = """
            name,email,organization
            Hedy Lamarr,hedy@example.net,MGM
            Ada Lovelace,ADA@example.org,
            No Address,not-an-address,
            Grace Hopper,grace@example.org,US Navy

            """
        func upload(_ token: String? = nil) throws -> RawHTTPResponse {
            var body = MultipartBody()
            body.add(field: "csrf", value: try token ?? web.csrfToken(from: "/import"))
            body.add(field: "format", value: "")
            body.add(field: "event", value: "Expo 2026")
            body.add(file: "list", fileName: "booth.csv", contentType: "text/csv", content: Array(csv.utf8))
            return try web.request(
                "POST", "/import", headers: [("Content-Type", body.contentType)], body: body.finished)
        }
        let posted = try upload()
        #expect(posted.status == 303)
        #expect(posted.header("Location") == "/import")
        let page = try web.get("/import").text
        #expect(page.contains("<strong>booth.csv</strong>: 4 rows: 2 inserted, 1 duplicate, 1 rejected"))
        #expect(page.contains("booth.csv:4: "), "the rejected row by its line, as the CLI says it")
        #expect(try web.store().count() == 3)
        let hedy = try #require(try web.store().prospect(.email("hedy@example.net")))
        #expect(hedy.firstEvent == "Expo 2026")
        #expect(hedy.firstSource.hasPrefix("booth.csv:"), "the list's own name, not where the server kept it")
        #expect(try upload().status == 303)
        #expect(try web.get("/import").text.contains("already in (the same list was imported on"))
        #expect(try web.store().count() == 3, "the same list again counts nobody twice")
        #expect(try upload("forged").status == 403)
    }

    @Test func aVCardFileIsKnownByItsContent() throws {
        let web = try WebFixture()
        var body = MultipartBody()
        body.add(field: "csrf", value: try web.csrfToken(from: "/import"))
        body.add(field: "format", value: "")
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Hedy Lamarr\r\nEMAIL:hedy@example.net\r\nEND:VCARD\r\n"
        body.add(file: "list", fileName: "contacts", contentType: "text/plain", content: Array(card.utf8))
        #expect(
            try web.request("POST", "/import", headers: [("Content-Type", body.contentType)], body: body.finished)
                .status == 303)
        #expect(try web.get("/import").text.contains("<strong>contacts</strong>: 1 row: 1 inserted, 0 duplicates"))
        #expect(try web.store().prospect(.email("hedy@example.net"))?.prospect.name == "Hedy Lamarr")
    }

    @Test func staffGet403OnExportAndImportAndAdminsMayUseThem() throws {
        let web = try WebSignInTests.fixture(leads: sampleLeads)
        try web.signIn("bob", "staple of the booth")
        #expect(try web.get("/export?format=csv").status == 403)
        #expect(try web.get("/import").status == 403)
        let token = try web.csrfToken(from: "/")
        var body = MultipartBody()
        body.add(field: "csrf", value: token)
        body.add(
            file: "list", fileName: "x.csv", contentType: "text/csv",
            content: Array("name,email\nMallory,mallory@example.org\n".utf8))
        let refused = try web.request(
            "POST", "/import", headers: [("Content-Type", body.contentType)], body: body.finished)
        #expect(refused.status == 403)
        #expect(try web.store().count() == 12, "nothing imported")
        #expect(!(try web.get("/").text.contains("/export?")), "staff are offered no export")
        #expect(!(try web.get("/").text.contains("id=\"delete-selected\"")), "nor a bulk delete")
        let admin = try WebSignInTests.fixture(leads: sampleLeads)
        try admin.signIn("ada", "correct horse battery")
        #expect(try admin.get("/export?format=csv").status == 200)
        #expect(try admin.get("/import").status == 200)
    }
}
