import Foundation
import ProspectStore
import ProspectsCore
import ProspectsService
import ProspectsTestSupport
import Testing
import WebTestSupport

/// Two `prospects serve` processes over one PostgreSQL, as behind a reverse proxy: the sessions are the store's,
/// so a browser signed in on one is signed in on the other, and signing out on either ends it on both.
@Suite struct WebSharedSessionTests {
    /// A started `prospects serve --sign-in` over `store`, stopped by `stop()`.
    final class ServeProcess {
        let process = Process()
        let port: UInt16

        init(store: String) throws {
            process.executableURL = ProspectsProcess.executable
            process.arguments = ["serve", "--store", store, "--port", "0", "--sign-in"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            port = try #require(ServeAddressLine(readingFrom: out).port)
        }

        func stop() {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }

        /// One request on a new connection, with the cookie given.
        func request(
            _ method: String, _ path: String, cookie: String?, form: [(String, String)] = []
        ) throws -> RawHTTPResponse {
            let client = try RawHTTPClient(port: port)
            defer { client.close() }
            var headers: [(String, String)] = []
            if let cookie { headers.append(("Cookie", cookie)) }
            var body: [UInt8] = []
            if method == "POST" {
                headers.append(("Content-Type", "application/x-www-form-urlencoded"))
                body = Array(
                    form.map { "\(WebFixture.encode($0.0))=\(WebFixture.encode($0.1))" }.joined(separator: "&").utf8)
            }
            return try client.request(method, path, headers: headers, body: body)
        }
    }

    private func cookie(of response: RawHTTPResponse) -> String? {
        response.header("Set-Cookie")?.split(separator: ";").first.map(String.init)
    }

    private func token(in page: String) throws -> String {
        let range = try #require(page.range(of: "name=\"csrf\" value=\""))
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test func aSessionBegunOnOneServerIsHonouredAndEndedByTheOther() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        let service = ProspectsService(location: .postgres(url: url))
        _ = try service.addAccount(name: "sam", role: .admin, password: "correct horse", iterations: 1_000)
        let store = try StoreLocation.postgres(url: url).open()
        _ = try store.record([
            Sighting(prospect: Prospect(name: "Ada Lovelace", email: "ada@example.org"), source: "t", seenAt: Date())
        ])
        let ada = try #require(try store.prospect(.email("ada@example.org")))
        let serverA = try ServeProcess(store: url)
        defer { serverA.stop() }
        let serverB = try ServeProcess(store: url)
        defer { serverB.stop() }

        // Sign in on A.
        let signInPage = try serverA.request("GET", "/signin", cookie: nil)
        let anonymous = try #require(cookie(of: signInPage))
        let signedIn = try serverA.request(
            "POST", "/signin", cookie: anonymous,
            form: [("csrf", try token(in: signInPage.text)), ("name", "sam"), ("password", "correct horse")])
        #expect(signedIn.status == 303)
        let session = try #require(cookie(of: signedIn))
        #expect(session != anonymous)
        let list = try serverA.request("GET", "/", cookie: session)
        #expect(list.status == 200 && list.text.contains("Ada Lovelace"))
        let csrf = try token(in: list.text)

        // B knows the session: its pages are served, its form is accepted.
        let onB = try serverB.request("GET", "/", cookie: session)
        #expect(onB.status == 200)
        #expect(onB.text.contains("<span class=\"account\" title=\"sam\">sam</span>"))
        #expect(try token(in: onB.text) == csrf, "one session, one token, on both servers")
        let marked = try serverB.request(
            "POST", "/leads/\(ada.id)/mark", cookie: session, form: [("csrf", csrf), ("contacted", "true")])
        #expect(marked.status == 303)
        #expect(try store.prospect(.id(ada.id))?.isContacted == true)
        // A wrong token is refused on either.
        let forged = try serverB.request(
            "POST", "/leads/\(ada.id)/mark", cookie: session,
            form: [("csrf", String(repeating: "0", count: 64)), ("contacted", "false")])
        #expect(forged.status == 403)

        // Signing out on B ends the session on A too.
        let signedOut = try serverB.request("POST", "/signout", cookie: session, form: [("csrf", csrf)])
        #expect(signedOut.status == 303)
        let afterSignOut = try serverA.request("GET", "/", cookie: session)
        #expect(afterSignOut.status == 303)
        #expect(afterSignOut.header("Location")?.hasSuffix("/signin") == true)
        let lateForm = try serverA.request(
            "POST", "/leads/\(ada.id)/mark", cookie: session, form: [("csrf", csrf), ("contacted", "false")])
        #expect(lateForm.status == 403)
        #expect(try store.prospect(.id(ada.id))?.isContacted == true)
    }
}
