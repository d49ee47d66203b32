import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import ProspectsWeb
import Testing
import WebTestSupport

@testable import ProspectsService

/// Accounts by raw requests: with sign-in required, nothing but the sign-in page (and the static files) answers
/// before signing in; the session changes at sign-in and ends at sign-out; failures are limited; staff may not delete.
@Suite struct WebSignInTests {
    static let accounts: [(name: String, role: AccountRole, password: String)] = [
        ("ada", .admin, "correct horse battery"), ("bob", .staff, "staple of the booth"),
    ]

    static func fixture(leads: [Prospect] = []) throws -> WebFixture {
        try WebFixture(leads: leads, accounts: accounts) { $0.requiresSignIn = true }
    }

    @Test func everyPageButSignInAnswers303ToSignInUntilSignedIn() throws {
        let web = try Self.fixture(leads: sampleLeads)
        for path in ["/", "/scan", "/reminders", "/me", "/leads/1", "/events", "/nowhere"] {
            let response = try web.get(path)
            #expect(response.status == 303, "\(path)")
            let next = path == "/" ? "" : "?next=" + WebFixture.encode(path)
            #expect(response.header("Location") == "/signin" + next, "\(path)")
        }
        let signIn = try web.get("/signin")
        #expect(signIn.status == 200)
        #expect(signIn.text.contains("type=\"password\""))
        #expect(!signIn.text.contains("Ada Lovelace"))
        #expect(try web.get("/static/app.css").status == 200)
        let token = try web.csrfToken(from: "/signin")
        let marked = try web.post("/mark", [("id", "1"), ("contacted", "true")], token: token)
        #expect(marked.status == 303)
        #expect(marked.header("Location") == "/signin")
        #expect(try web.store().list(filter: .contacted, sort: .name, reverse: false).isEmpty, "nothing changed")
    }

    @Test func signingInRotatesTheSessionAndSigningOutEndsIt() throws {
        let web = try Self.fixture(leads: sampleLeads)
        _ = try web.get("/signin")
        let before = try #require(web.cookie)
        let signedIn = try web.signIn("bob", "staple of the booth")
        #expect(signedIn.status == 303)
        #expect(signedIn.header("Location") == "/")
        let after = try #require(web.cookie)
        #expect(after != before, "a new session id at sign-in")
        #expect(signedIn.header("Set-Cookie")?.hasPrefix("prospects_session=") == true)
        #expect(signedIn.header("Set-Cookie")?.contains("HttpOnly; SameSite=Lax") == true)
        let list = try web.get("/")
        #expect(list.status == 200)
        #expect(list.text.contains("Ada Lovelace"))
        #expect(list.text.contains("Sign out"))
        #expect(list.text.contains("bob"))
        #expect(try web.get("/signin").header("Location") == "/", "signed in, the sign-in page leads to the list")
        // The id from before sign-in is worth nothing now.
        web.cookie = before
        #expect(try web.get("/").header("Location") == "/signin")
        web.cookie = after
        let signedOut = try web.post("/signout", [])
        #expect(signedOut.header("Location") == "/signin")
        web.cookie = after
        #expect(try web.get("/").header("Location") == "/signin", "the session ended at sign-out")
    }

    /// A fixture whose clock stands still until the test moves it: delays are decided without sleeping.
    static func fixtureWithClock(leads: [Prospect] = []) throws -> (WebFixture, TestClock) {
        let clock = TestClock()
        let web = try WebFixture(leads: leads, accounts: accounts) {
            $0.requiresSignIn = true
            $0.now = { clock.now }
        }
        return (web, clock)
    }

    @Test func aWrongPasswordIs401AndRepeatedFailuresAreDelayedWith429() throws {
        let (web, clock) = try Self.fixtureWithClock()
        let wrong = try web.signIn("ada", "not the password")
        #expect(wrong.status == 401)
        #expect(wrong.text.contains("Wrong name or password."))
        #expect(try web.signIn("nobody", "whatever it is").status == 401, "an unknown name reads the same")
        for _ in 0..<2 { _ = try web.signIn("ada", "still not it") }
        let limited = try web.signIn("ada", "correct horse battery")
        #expect(limited.status == 429, "three failures from this address: the right password waits a second")
        #expect(limited.header("Retry-After") == "1")
        #expect(limited.text.contains("try again in 1 second"))
        #expect(try web.get("/").header("Location") == "/signin")
        clock.advance(1)
        #expect(try web.signIn("ada", "correct horse battery").status == 303, "after the delay, at once")
    }

    /// One booth behind one NAT: ten wrong passwords for one account, then another person's right password for
    /// another account from the same address is accepted at once.
    @Test func tenFailuresForOneAccountLeaveAnotherAccountAtTheSameAddressOpen() throws {
        let (web, clock) = try Self.fixtureWithClock(leads: sampleLeads)
        var statuses: [Int] = []
        var waits: [Int] = []
        for _ in 0..<10 {
            let response = try web.signIn("ada", "a wrong guess")
            statuses.append(response.status)
            if let wait = response.header("Retry-After").flatMap(Int.init) {
                waits.append(wait)
                clock.advance(TimeInterval(wait))
            }
        }
        #expect(statuses.filter { $0 == 401 }.count >= 3)
        #expect(waits == waits.sorted() && waits.count >= 2 && waits.last! > waits.first!, "delays grow: \(waits)")
        let colleague = WebFixture.sharingServer(of: web)
        let signedIn = try colleague.signIn("bob", "staple of the booth")
        #expect(signedIn.status == 303)
        #expect(try colleague.get("/").text.contains("Ada Lovelace"))
    }

    /// A link to a lead opened before sign-in lands on that lead after it; a `next` naming another site is ignored.
    @Test func signingInFromADeepLinkLandsOnTheLink() throws {
        let web = try Self.fixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"]?.id)
        let asked = try web.get("/leads/\(ada)")
        let location = try #require(asked.header("Location"))
        #expect(location == "/signin?next=%2Fleads%2F\(ada)")
        let page = try web.get(location)
        #expect(page.text.contains("name=\"next\" value=\"/leads/\(ada)\""))
        let token = try web.csrfToken(from: location)
        let signedIn = try web.post(
            "/signin", [("name", "bob"), ("password", "staple of the booth"), ("next", "/leads/\(ada)")], token: token)
        #expect(signedIn.header("Location") == "/leads/\(ada)")
        #expect(try web.get("/leads/\(ada)").text.contains("Ada Lovelace"))
        for evil in ["//evil.example/", "/\\evil.example", "https://evil.example/", "javascript:alert(1)", "/\t/evil"] {
            let other = try Self.fixture()
            let token = try other.csrfToken(from: "/signin?next=" + WebFixture.encode(evil))
            #expect(!(try other.get("/signin?next=" + WebFixture.encode(evil)).text.contains("evil.example")))
            let response = try other.post(
                "/signin", [("name", "bob"), ("password", "staple of the booth"), ("next", evil)], token: token)
            #expect(response.header("Location") == "/", "\(evil)")
        }
    }

    @Test func theSignedInAccountCollectsTheLeadsItUploads() throws {
        let web = try Self.fixture()
        try web.signIn("bob", "staple of the booth")
        var body = MultipartBody()
        body.add(field: "csrf", value: try web.csrfToken())
        body.add(
            file: "pictures", fileName: "hedy.png", contentType: "image/png",
            content: PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net"))
        let posted = try web.request(
            "POST", "/scan", headers: [("Content-Type", body.contentType)], body: body.finished)
        #expect(posted.status == 303, "staff may scan")
        #expect(try web.leads()["Hedy Lamarr"]?.firstCollectedBy == "bob")
    }

    @Test func aRemovedAccountIsSignedOutOfItsSessions() throws {
        let web = try Self.fixture(leads: sampleLeads)
        try web.signIn("bob", "staple of the booth")
        #expect(try web.get("/").status == 200)
        try ProspectsService(location: .sqlite(path: web.storePath)).removeAccount(named: "bob")
        #expect(try web.get("/").header("Location") == "/signin")
        #expect(try web.signIn("bob", "staple of the booth").status == 401)
    }

    @Test func aSignInWithoutTheFormsTokenIsRefused() throws {
        let web = try Self.fixture()
        _ = try web.get("/signin")
        let response = try web.post("/signin", [("name", "ada"), ("password", "correct horse battery")], token: "bad")
        #expect(response.status == 403)
        #expect(try web.get("/").header("Location") == "/signin")
    }

    @Test func staffGet403OnDeleteAndAdminsMayDelete() throws {
        let web = try Self.fixture(leads: sampleLeads)
        try web.signIn("bob", "staple of the booth")
        let ada = try #require(try web.leads()["Ada Lovelace"]?.id)
        let refused = try web.post("/delete", [("id", "\(ada)"), ("confirmed", "true")])
        #expect(refused.status == 403)
        #expect(try web.store().count() == 12)
        let marked = try web.post("/mark", [("id", "\(ada)"), ("contacted", "true")])
        #expect(marked.status == 303, "staff may mark")
        #expect(try web.store().prospect(.id(ada))?.isContacted == true)
        let admin = try Self.fixture(leads: sampleLeads)
        try admin.signIn("ada", "correct horse battery")
        let deleted = try admin.post("/delete", [("id", "\(ada)"), ("confirmed", "true")])
        #expect(deleted.status == 303)
        #expect(try admin.store().count() == 11)
    }

    @Test func offLoopbackWithAnAccountItServes() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-serve-test")
        defer { folder.cleanup() }
        let store = folder.file("p.sqlite")
        let added = try ProspectsProcess.run(
            ["user", "add", "ada", "--role", "admin", "--store", store], stdin: Data("correct horse battery\n".utf8))
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try ProspectsProcess.run(["user", "list", "--store", store])
        #expect(String(decoding: listed.stdout, as: UTF8.self) == "ada\tadmin\n")
        let short = try ProspectsProcess.run(
            ["user", "add", "bob", "--role", "staff", "--store", store], stdin: Data("short\n".utf8))
        #expect(short.status == 65)
        #expect(short.stderr.contains("at least 8 characters"))
        let taken = try ProspectsProcess.run(
            ["user", "add", "ada", "--role", "staff", "--store", store], stdin: Data("another password\n".utf8))
        #expect(taken.status == 65)
        let badRole = try ProspectsProcess.run(["user", "add", "eve", "--role", "root", "--store", store])
        #expect(badRole.status == 64)
        var configuration = WebConfiguration()
        configuration.host = "0.0.0.0"
        configuration.port = 0
        configuration.storeOption = store
        configuration.uploadDirectory = folder.file("uploads")
        let server = try WebServer(configuration: configuration)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        defer { client.close() }
        let page = try client.request("GET", "/")
        #expect(page.status == 303)
        #expect(page.header("Location") == "/signin")
        let removed = try ProspectsProcess.run(["user", "remove", "ada", "--store", store])
        #expect(removed.status == 0)
        #expect(try ProspectsProcess.run(["user", "remove", "ada", "--store", store]).status == 65)
        #expect(try ProspectsProcess.run(["user", "list", "--store", store]).stdout.isEmpty)
    }
}
