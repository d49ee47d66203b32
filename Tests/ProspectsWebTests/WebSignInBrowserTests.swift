import Foundation
import Testing
import WebTestSupport

/// Signing in and out in headless Chromium, with accounts required (as off loopback): a wrong password shows the
/// error and no list, the right one lands on the list, signing out goes back to the sign-in page.
@Suite(.serialized) struct WebSignInBrowserTests {
    @Test(arguments: [(390, 844, true), (1280, 800, false)])
    func wrongPasswordRightPasswordAndSignOut(width: Int, height: Int, mobile: Bool) throws {
        let web = try WebSignInTests.fixture(leads: sampleLeads)
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: width, height: height, mobile: mobile)
        defer { session.close() }
        try session.navigate(to: web.baseURL + "/")
        try waitUntil("the sign-in page") { try session.currentURL().hasSuffix("/signin") }

        try session.type("ada", into: try session.findElement("input[name=name]"))
        try session.type("wrong horse", into: try session.findElement("input[name=password]"))
        try session.click(try session.findElement("form.stack button.primary"))
        try waitUntil("the error") { try session.findElements("#signin-problem").count == 1 }
        #expect(try session.text(of: session.findElement("#signin-problem")) == "Wrong name or password.")
        #expect(try session.findElements("table.leads").isEmpty)
        #expect(try session.execute("return document.querySelector('input[name=name]').value") as? String == "ada")
        try session.screenshot(to: "\(screenshotFolder)/signin-error-\(width)x\(height).png")

        try session.type("correct horse battery", into: try session.findElement("input[name=password]"))
        try session.click(try session.findElement("form.stack button.primary"))
        try waitUntil("the list") { try session.findElements("table.leads").count == 1 }
        #expect(try session.currentURL() == web.baseURL + "/")
        #expect(try session.text(of: session.findElement("header .account")) == "ada")
        #expect(try session.findElements("td.name a").count > 0)

        try session.click(try session.findElement("form.signout button"))
        try waitUntil("the sign-in page again") { try session.currentURL().hasSuffix("/signin") }
        #expect(try session.findElements("header .account").isEmpty)
        try session.navigate(to: web.baseURL + "/")
        #expect(try session.currentURL().hasSuffix("/signin"), "signed out: the list is closed again")
    }
}
