import Foundation
import ProspectStore
import ProspectsCore
import ProspectsWeb
import SystemCalls
import Testing
import WebTestSupport

@testable import ProspectsService

/// A crowd on the event's Wi-Fi, by raw requests on both stores: requests without a cookie write nothing, so they
/// neither fill the sessions table nor sign anyone out.
@Suite struct WebCrowdTests {
    static let accounts: [(name: String, role: AccountRole, password: String)] = [
        ("ada", .admin, "correct horse battery"), ("bob", .staff, "staple of the booth"),
    ]

    private func sessionCount(_ web: WebFixture) throws -> Int {
        try #require(try web.store() as? any WebSessionStore).sessionCount()
    }

    @Test(arguments: WebStoreKind.allCases)
    func fiftyThousandRequestsWithoutACookieLeaveTheSessionsAsTheyWere(kind: WebStoreKind) throws {
        let web = try WebFixture(leads: sampleLeads, accounts: Self.accounts, kind: kind) { $0.requiresSignIn = true }
        let bob = WebFixture.sharingServer(of: web)
        #expect(try web.signIn("ada", "correct horse battery").status == 303)
        #expect(try bob.signIn("bob", "staple of the booth").status == 303)
        let before = try sessionCount(web)
        #expect(before == 2)

        // Keep-alive connections sending the pages a passer-by asks for, none with a cookie; a few POSTs too.
        let paths = ["/", "/signin", "/leads/1", "/scan", "/nowhere", "/?tab=contacted", "/signin?next=%2Fleads%2F2"]
        let requests = 50_000
        let connections = 4
        let port = web.port
        let tally = Locked<[Int: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: connections) { connection in
            var counted: [Int: Int] = [:]
            do {
                let client = try RawHTTPClient(port: port)
                defer { client.close() }
                for index in stride(from: connection, to: requests, by: connections) {
                    let response: RawHTTPResponse
                    if index % 1_000 == 0 {
                        response = try client.request(
                            "POST", "/signin", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                            body: Array("name=ada&password=x".utf8))
                    } else {
                        response = try client.request("GET", paths[index % paths.count])
                    }
                    counted[response.status, default: 0] += 1
                }
            } catch {
                counted[-1, default: 0] += 1
            }
            tally.withLock { $0.merge(counted, uniquingKeysWith: +) }
        }
        let statuses = tally.withLock { $0 }
        #expect(statuses.values.reduce(0, +) == requests)
        #expect(statuses[-1] == nil && statuses[500] == nil && statuses[503] == nil, "\(statuses)")
        #expect(statuses[403] == 50, "a POST without a cookie is refused: \(statuses)")
        #expect(try sessionCount(web) == before, "no session row for anyone not signed in")
        let list = try web.get("/")
        #expect(list.status == 200 && list.text.contains("Ada Lovelace"), "ada still signed in")
        #expect(try bob.get("/").status == 200, "bob still signed in")
    }
}
