import Foundation
import ProspectStore
import ProspectsCore
import Testing
import WebTestSupport

/// The list is served from a cache kept while the store's generation stays put: a write by anyone, from any process,
/// shows on the very next request, and each session's page carries its own form token.
@Suite struct WebPageCacheTests {
    private func rowCount(_ page: String) -> Int { page.components(separatedBy: "<tr data-id=").count - 1 }

    @Test(arguments: WebStoreKind.allCases)
    func anotherConnectionsWriteShowsOnTheNextRequest(kind: WebStoreKind) throws {
        let web = try WebFixture(leads: sampleLeads, kind: kind)
        let first = try web.get("/?sort=recent").text
        #expect(rowCount(first) == 12)
        #expect(try web.get("/?sort=recent").text == first, "the same page again, from the cache")
        // Another connection, as `prospects ingest` or another `serve` would write.
        let other = try web.store()
        _ = try other.record([
            Sighting(
                prospect: Prospect(name: "Zed Newcomer", email: "zed@example.org"), source: "elsewhere",
                seenAt: Date(timeIntervalSince1970: 1_790_000_000))
        ])
        let afterInsert = try web.get("/?sort=recent").text
        #expect(afterInsert.contains("Zed Newcomer"))
        #expect(rowCount(afterInsert) == 13)
        #expect(afterInsert.contains("<span class=\"count\">13</span>"))
        _ = try other.setContacted(.email("ada@example.org"), true)
        let contacted = try web.get("/?tab=contacted").text
        #expect(contacted.contains("Ada Lovelace") && rowCount(contacted) == 1)
        _ = try other.delete(.email("zed@example.org"))
        #expect(try !web.get("/?sort=recent").text.contains("Zed Newcomer"))
        #expect(try web.get("/?q=zed").text.contains("No lead matches"))
    }

    @Test(arguments: WebStoreKind.allCases)
    func aFormsWriteShowsAtOnce(kind: WebStoreKind) throws {
        let web = try WebFixture(leads: sampleLeads, kind: kind)
        let ada = try #require(try web.store().prospect(.email("ada@example.org")))
        #expect(try web.get("/?tab=contacted").text.contains("No leads here yet."))
        let marked = try web.post("/leads/\(ada.id)/mark", [("contacted", "true"), ("return", "/?tab=contacted")])
        #expect(marked.status == 303)
        let page = try web.get("/?tab=contacted").text
        #expect(page.contains("Ada Lovelace") && rowCount(page) == 1)
        #expect(page.contains("<span class=\"count\">1</span>"))
    }

    /// Two browsers looking at the same page get it with their own session's token, and each one's form works.
    @Test func eachSessionGetsItsOwnTokenInACachedPage() throws {
        let web = try WebFixture(leads: sampleLeads)
        let tokenA = try web.csrfToken(from: "/")
        let cookieA = try #require(web.cookie)
        web.cookie = nil
        let tokenB = try web.csrfToken(from: "/")
        let cookieB = try #require(web.cookie)
        #expect(cookieA != cookieB && tokenA != tokenB)
        #expect(tokenB.count > 64)
        let page = try web.get("/").text
        #expect(!page.contains(tokenA), "no session sees another's token")
        #expect(page.components(separatedBy: tokenB).count == 2, "the list's form carries the token")
        let ada = try #require(try web.store().prospect(.email("ada@example.org")))
        #expect(try web.post("/leads/\(ada.id)/mark", [("contacted", "true")], token: tokenB).status == 303)
        web.cookie = cookieA
        #expect(try web.post("/leads/\(ada.id)/mark", [("contacted", "false")], token: tokenA).status == 303)
        #expect(try web.post("/leads/\(ada.id)/mark", [("contacted", "false")], token: tokenB).status == 403)
    }

    /// PostgreSQL has the generation too, so its event streams hear of another process's writes.
    @Test func thePostgresEventStreamSaysWhenAnotherConnectionWrites() throws {
        let web = try WebFixture(leads: sampleLeads, kind: .postgres)
        let client = try RawHTTPClient(port: web.port)
        defer { client.close() }
        try client.send(RawHTTPClient.requestBytes("GET", "/events", host: "127.0.0.1:\(web.port)"))
        #expect(try client.readHead().status == 200)
        _ = try client.readChunk()  // retry:
        _ = try web.store().setRating(.email("ada@example.org"), .hot)
        var received = ""
        let deadline = Date() + 10  // a heartbeat comes every 15 s at the latest, so the loop ends
        while !received.contains("event: change"), Date() < deadline {
            guard let chunk = try client.readChunk() else { break }
            received += String(decoding: chunk, as: UTF8.self)
        }
        #expect(received.contains("event: change"))
    }
}
