import Foundation
import HTTPServer
import ProspectStore
import ProspectsCore
import ProspectsWeb
import Testing
import WebTestSupport

/// Links from elsewhere, in headless Chromium: a link to a lead opened before sign-in lands on that lead after it,
/// and a link on another site (another origin: `localhost` against the server's `127.0.0.1`) keeps the reader
/// signed in.
@Suite(.serialized) struct WebLinkBrowserTests {
    @Test func aDeepLinkLandsOnItsLeadAfterSignInAndALinkFromAnotherSiteKeepsTheSession() throws {
        let web = try WebSignInTests.fixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"]?.id)
        let leadURL = web.baseURL + "/leads/\(ada)"
        // Another site: one page linking to the lead.
        let elsewhere = try HTTPServer { _ in
            .text(
                "<!doctype html><title>Elsewhere</title><a id=\"go\" href=\"\(leadURL)\">a lead</a>",
                contentType: "text/html; charset=utf-8")
        }
        defer { elsewhere.stop() }
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: 390, height: 844, mobile: true)
        defer { session.close() }

        try session.navigate(to: leadURL)
        try waitUntil("the sign-in page") { try session.currentURL().contains("/signin?next=") }
        try session.type("bob", into: try session.findElement("input[name=name]"))
        try session.type("staple of the booth", into: try session.findElement("input[name=password]"))
        try session.click(try session.findElement("form.stack button.primary"))
        try waitUntil("the lead asked for") { try session.currentURL() == leadURL }
        #expect(try session.text(of: session.findElement("h1.lead-name")) == "Ada Lovelace")

        try session.navigate(to: "http://localhost:\(elsewhere.port)/")
        try waitUntil("the other site") { try session.findElements("#go").count == 1 }
        try session.click(try session.findElement("#go"))
        try waitUntil("the lead, still signed in") {
            try session.currentURL() == leadURL && session.findElements("header .account").count == 1
        }
        #expect(try session.text(of: session.findElement("header .account")) == "bob")
        #expect(try session.text(of: session.findElement("h1.lead-name")) == "Ada Lovelace")
    }
}
