import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import ProspectsWeb
import Testing
import WebTestSupport

@testable import ProspectsService

/// Each protection of the web front-end, by raw requests: every test here fails when its protection is removed.
@Suite struct WebSecurityTests {
    @Test func aPostWithoutTheSessionsTokenIsRefusedWith403AndChangesNothing() throws {
        let web = try WebFixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"])
        _ = try web.get("/")  // a session, as a browser has
        let noToken = try web.post("/leads/\(ada.id)/mark", [("contacted", "true")], token: "")
        #expect(noToken.status == 403)
        let wrongToken = try web.post(
            "/leads/\(ada.id)/mark", [("contacted", "true")], token: String(repeating: "0", count: 64))
        #expect(wrongToken.status == 403)
        // Another site's form carries no cookie (SameSite=Lax: no cookie on a cross-site POST) and cannot know the
        // token.
        web.cookie = nil
        let crossSite = try web.post("/leads/\(ada.id)/mark", [("contacted", "true")], token: "")
        #expect(crossSite.status == 403)
        #expect(try web.leads()["Ada Lovelace"]?.isContacted == false)
        let withToken = try web.post("/leads/\(ada.id)/mark", [("contacted", "true")])
        #expect(withToken.status == 303)
        #expect(try web.leads()["Ada Lovelace"]?.isContacted == true)
    }

    @Test func aVisitorGetsAFormCookieLaxAndHttpOnlyAndNoSession() throws {
        let web = try WebFixture()
        let page = try web.get("/")
        let cookie = try #require(page.header("Set-Cookie"))
        #expect(cookie.hasPrefix("prospects_form="))
        #expect(cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Lax"))
        #expect(try web.get("/").header("Set-Cookie") == nil, "a cookie held is never replaced by a GET")
    }

    /// A visitor's token is the server key's HMAC of the nonce in its cookie: another nonce, or a token made for
    /// another visitor, is refused.
    @Test func aVisitorsTokenIsBoundToItsOwnCookie() throws {
        let web = try WebFixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"])
        let tokenA = try web.csrfToken(from: "/")
        let cookieA = try #require(web.cookie)
        web.cookie = nil
        let tokenB = try web.csrfToken(from: "/")
        #expect(tokenA != tokenB)
        #expect(try web.post("/leads/\(ada.id)/mark", [("contacted", "true")], token: tokenA).status == 403)
        web.cookie = "prospects_form=" + String(repeating: "a", count: 64)
        #expect(try web.post("/leads/\(ada.id)/mark", [("contacted", "true")], token: tokenB).status == 403)
        #expect(try web.leads()["Ada Lovelace"]?.isContacted == false)
        web.cookie = cookieA
        #expect(try web.post("/leads/\(ada.id)/mark", [("contacted", "true")], token: tokenA).status == 303)
    }

    @Test func aHostNameThatIsNotTheServersIsRefused() throws {
        let web = try WebFixture(leads: sampleLeads)
        let rebound = try web.request("GET", "/", host: "attacker.example:\(web.port)")
        #expect(rebound.status == 421)
        #expect(!rebound.text.contains("Ada Lovelace"))
        let missing = try web.request("GET", "/", host: "")
        #expect(missing.status == 421)
        for host in ["127.0.0.1:\(web.port)", "localhost:\(web.port)", "LOCALHOST"] {
            #expect(try web.request("GET", "/", host: host).status == 200, "\(host)")
        }
    }

    @Test(arguments: ["/", "/scan", "/me", "/reminders", "/static/app.css", "/nowhere"])
    func everyResponseCarriesTheSecurityHeaders(path: String) throws {
        let web = try WebFixture(leads: sampleLeads)
        let response = try web.get(path)
        let policy = try #require(response.header("Content-Security-Policy"))
        #expect(policy.contains("script-src 'self'"))
        #expect(!policy.contains("unsafe-inline"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(response.header("X-Content-Type-Options") == "nosniff")
    }

    @Test func markupInALeadsNameShowsAsText() throws {
        let web = try WebFixture(leads: [
            Prospect(
                name: "<img src=x onerror=alert(1)>", email: "xss@example.org",
                organization: "<script>alert(2)</script>")
        ])
        let list = try web.get("/").text
        #expect(list.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!list.contains("<img src=x"))
        #expect(!list.contains("<script>alert"))
        let id = try #require(try web.leads().values.first?.id)
        let lead = try web.get("/leads/\(id)").text
        #expect(lead.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!lead.contains("<img src=x"))
    }

    @Test func anOversizeUploadIsRefusedWith413AndStoresNothing() throws {
        let web = try WebFixture(leads: []) { $0.maximumUploadFileSize = 64 * 1024 }
        let token = try web.csrfToken()
        var body = MultipartBody()
        body.add(field: "csrf", value: token)
        let code = PNGFixtures.contactCode("Big Picture\nbig@example.org")
        let padded = code + [UInt8](repeating: 0, count: 80 * 1024)
        body.add(file: "pictures", fileName: "big.png", contentType: "image/png", content: padded)
        let response = try web.request(
            "POST", "/scan", headers: [("Content-Type", body.contentType)], body: body.finished)
        #expect(response.status == 413)
        #expect(try web.store().count() == 0)
        #expect(uploadsWaiting(in: web.folder.file("uploads")).isEmpty, "nothing of a refused upload waits")
        for inner in ["archive", "rejected"] {
            let kept = try FileManager.default.contentsOfDirectory(atPath: web.folder.file("uploads/" + inner))
            #expect(kept.isEmpty, "nothing of a refused upload is kept in \(inner): \(kept)")
        }
    }

    @Test func tooManyFilesInOneUploadAreRefusedWith413() throws {
        let web = try WebFixture(leads: []) { $0.maximumUploadFiles = 2 }
        let token = try web.csrfToken()
        var body = MultipartBody()
        body.add(field: "csrf", value: token)
        for number in 1...3 {
            body.add(
                file: "pictures", fileName: "\(number).png", contentType: "image/png",
                content: PNGFixtures.contactCode("Person \(number)\np\(number)@example.org"))
        }
        let response = try web.request(
            "POST", "/scan", headers: [("Content-Type", body.contentType)], body: body.finished)
        #expect(response.status == 413)
        #expect(try web.store().count() == 0)
    }

    @Test func aReturnAddressOnAnotherSiteIsNotFollowed() throws {
        let web = try WebFixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"])
        for target in ["https://attacker.example/", "//attacker.example/", "/\\attacker.example"] {
            let response = try web.post("/leads/\(ada.id)/mark", [("contacted", "true"), ("return", target)])
            #expect(response.status == 303)
            #expect(response.header("Location") == "/", "\(target)")
        }
    }

    @Test func offLoopbackWithoutAccountsItRefusesToStart() throws {
        var configuration = WebConfiguration()
        configuration.host = "0.0.0.0"
        configuration.port = 0
        #expect(throws: WebServerError.accountsRequired(host: "0.0.0.0")) {
            _ = try WebServer(configuration: configuration)
        }
    }
}
