import Foundation
import ProspectStore
import ProspectsCore
import Testing
import WebTestSupport

/// The route table behind a real server: 404 for a path no route has, 405 with the path's own methods, the role a
/// route needs checked before its handler, and a visitor sent to sign in whatever the path.
@Suite struct WebRoutingTests {
    @Test func aKnownPathByAnotherMethodIs405WithItsMethodsAndAnUnknownOne404() throws {
        let web = try WebFixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"])
        let markByGet = try web.get("/mark")
        #expect(markByGet.status == 405)
        #expect(markByGet.header("Allow") == "POST")
        let listByPost = try web.post("/", [("contacted", "true")])
        #expect(listByPost.status == 405)
        #expect(listByPost.header("Allow") == "GET, HEAD")
        let put = try web.request("PUT", "/leads/\(ada.id)")
        #expect(put.status == 405)
        #expect(put.header("Allow") == "GET, HEAD")
        #expect(try web.request("DELETE", "/signin").header("Allow") == "GET, HEAD, POST")
        #expect(try web.request("HEAD", "/reminders").status == 200)
        #expect(try web.get("/nowhere").status == 404)
        #expect(try web.post("/leads/\(ada.id)/unknown", []).status == 404)
        #expect(try web.get("/leads/0").status == 404)
        #expect(try web.request("PUT", "/nowhere").status == 404)
        #expect(try web.leads()["Ada Lovelace"]?.isContacted == false, "nothing written by a refused method")
    }

    @Test func aVisitorIsSentToSignInAndStaffAreRefusedWhatOnlyAdminsMayDo() throws {
        let web = try WebSignInTests.fixture()
        // Before signing in, a lead that does not exist looks like any other page: sign in first.
        for path in ["/leads/999999", "/nowhere", "/users"] {
            let answer = try web.get(path)
            #expect(answer.status == 303, "\(path)")
            #expect(answer.header("Location") == "/signin?next=" + WebFixture.encode(path), "\(path)")
        }
        try web.signIn("bob", "staple of the booth")
        #expect(try web.get("/leads/999999").status == 404)
        let users = try web.get("/users")
        #expect(users.status == 403)
        #expect(users.text.contains("Only an admin may manage users."))
        #expect(try web.get("/export?format=csv").text.contains("Only an admin may export the list."))
        #expect(try web.post("/delete", [("id", "1")]).text.contains("Only an admin may delete leads."))
        #expect(try web.get("/signin").header("Location") == "/", "signed in: the sign-in page goes to the list")
    }
}
