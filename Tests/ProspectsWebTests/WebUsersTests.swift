import Foundation
import ProspectStore
import ProspectsCore
import ProspectsService
import Testing
import WebTestSupport

/// The users page by raw requests: the accounts `prospects user` manages, for admins only.
@Suite struct WebUsersTests {
    @Test func anAdminListsAddsAndRemovesAccounts() throws {
        let web = try WebSignInTests.fixture()
        try web.signIn("ada", "correct horse battery")
        let page = try web.get("/users")
        #expect(page.status == 200)
        #expect(page.text.contains("<td class=\"name\">bob</td><td class=\"role\">staff</td>"))
        #expect(page.text.contains("href=\"/users\""), "admins see it in the navigation")
        let ownRow = try #require(page.text.range(of: "data-account=\"ada\""))
        #expect(!page.text[ownRow.upperBound...].prefix(300).contains("Remove"), "no removing oneself")
        let added = try web.post(
            "/users/add", [("name", "carol"), ("role", "admin"), ("password", "long enough pass")])
        #expect(added.status == 303)
        let service = ProspectsService(location: .sqlite(path: web.storePath))
        #expect(try service.account(named: "carol")?.role == .admin)
        #expect(try service.authenticate(name: "carol", password: "long enough pass") != nil)
        let short = try web.post("/users/add", [("name", "dave"), ("role", "staff"), ("password", "short")])
        #expect(short.status == 400)
        #expect(short.text.contains("the password must have at least 8 characters"))
        #expect(short.text.contains("value=\"dave\""))
        let taken = try web.post("/users/add", [("name", "bob"), ("role", "staff"), ("password", "long enough pass")])
        #expect(taken.text.contains("an account named bob already exists"))
        let badName = try web.post("/users/add", [("name", "<b>"), ("role", "staff"), ("password", "long enough")])
        #expect(badName.status == 400)
        #expect(badName.text.contains("invalid account name &quot;&lt;b&gt;&quot;"), "escaped")
        #expect(try web.post("/users/remove", [("name", "carol")]).status == 303)
        #expect(try service.account(named: "carol") == nil)
        #expect(try web.post("/users/remove", [("name", "nobody")]).text.contains("there is no account named nobody"))
        #expect(
            try web.post("/users/add", [("name", "eve"), ("role", "root"), ("password", "long enough")]).status == 400)
        #expect(try service.account(named: "eve") == nil)
    }

    @Test func staffGet403AndSeeNoUsersLink() throws {
        let web = try WebSignInTests.fixture()
        try web.signIn("bob", "staple of the booth")
        #expect(try web.get("/users").status == 403)
        #expect(!(try web.get("/").text.contains("href=\"/users\"")))
        let added = try web.post("/users/add", [("name", "mallory"), ("role", "admin"), ("password", "long enough")])
        #expect(added.status == 403)
        #expect(try web.post("/users/remove", [("name", "ada")]).status == 403)
        let service = ProspectsService(location: .sqlite(path: web.storePath))
        #expect(try service.accounts().map(\.name) == ["ada", "bob"])
    }

    @Test func withoutSignInTheLocalUserIsTheAdminAndTheFormsNeedTheToken() throws {
        let web = try WebFixture()
        #expect(try web.get("/users").text.contains("No accounts yet"))
        let forged = try web.post(
            "/users/add", [("name", "mallory"), ("role", "admin"), ("password", "long enough")], token: "forged")
        #expect(forged.status == 403)
        #expect(
            try web.post("/users/add", [("name", "sam"), ("role", "staff"), ("password", "long enough")]).status == 303)
        let service = ProspectsService(location: .sqlite(path: web.storePath))
        #expect(try service.accounts().map(\.name) == ["sam"])
    }
}
