import Foundation
import ProspectStore
import ProspectsCore
import ProspectsWeb
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
        #expect(try session.countElements("table.leads") == 0)
        #expect(try session.execute("return document.querySelector('input[name=name]').value") as? String == "ada")
        try session.screenshot(to: "\(screenshotFolder)/signin-error-\(width)x\(height).png")

        try session.type("correct horse battery", into: try session.findElement("input[name=password]"))
        try session.click(try session.findElement("form.stack button.primary"))
        try waitUntil("the list") { try session.findElements("table.leads").count == 1 }
        #expect(try session.currentURL() == web.baseURL + "/")
        #expect(try session.text(of: session.findElement("header .account")) == "ada")
        #expect(try session.findElements("td.name a").count > 0)

        #expect(try WebBrowserTests.headerIsOneRow(session), "signed in, the header still fits in one row")
        try session.click(try session.findElement("form.signout button"))
        try waitUntil("the sign-in page again") { try session.currentURL().hasSuffix("/signin") }
        #expect(try session.countElements("header .account") == 0)
        try session.navigate(to: web.baseURL + "/")
        #expect(try session.currentURL().hasSuffix("/signin"), "signed out: the list is closed again")
    }

    /// Signed in at phone width, with the widest header a role has (the reminders' bell shown, an admin's Users
    /// link, a long account name): still one row, the name cut short but whole in its title, sign-out an icon
    /// button that says what it does.
    @Test(arguments: [AccountRole.admin, .staff])
    func theSignedInHeaderIsOneRowOnAPhone(role: AccountRole) throws {
        let name = "margaret.hamilton.\(role.rawValue)"
        let web = try WebFixture(leads: sampleLeads, accounts: [(name, role, "correct horse battery")]) {
            $0.requiresSignIn = true
        }
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: 390, height: 844, mobile: true)
        defer { session.close() }
        try session.navigate(to: web.baseURL + "/signin")
        try session.type(name, into: try session.findElement("input[name=name]"))
        try session.type("correct horse battery", into: try session.findElement("input[name=password]"))
        try session.click(try session.findElement("form.stack button.primary"))
        try session.waitForPage("/", showing: "table.leads")
        try session.execute("document.getElementById('notify-reminders').hidden = false")

        #expect(try WebBrowserTests.headerIsOneRow(session), "the header fits in one row")
        #expect(try session.countElements("header.top a[href='/users']") == (role == .admin ? 1 : 0))
        let account = try session.findElement("header .account")
        #expect(try session.text(of: account) == name)
        #expect(
            try session.execute(
                "var a = arguments[0]; return a.getAttribute('title') === a.textContent && a.scrollWidth > a.clientWidth",
                [WebBrowserTests.reference(account)]) as? Bool == true, "cut short, whole in its title")
        let signOut = try session.findElement("form.signout button")
        #expect(
            try session.execute(
                "var b = arguments[0]; return [b.getAttribute('aria-label'), String(b.offsetParent !== null)]",
                [WebBrowserTests.reference(signOut)]) as? [String] == ["Sign out", "true"])
        try session.screenshot(to: "\(screenshotFolder)/header-\(role.rawValue)-390x844.png")
        try session.click(signOut)
        try waitUntil("the sign-in page") { try session.currentURL().hasSuffix("/signin") }
    }
}
