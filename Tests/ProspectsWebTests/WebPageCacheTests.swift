import Foundation
import ProspectStore
import ProspectsCore
import ProspectsWeb
import Testing
import WebTestSupport

@testable import ProspectsService

/// The list is served from a cache kept per store generation: one render per page and generation however many ask, a
/// write by anyone, from any process, shows once that render is done, a session's own write at once, and each
/// session's page carries its own form token.
@Suite struct WebPageCacheTests {
    private func rowCount(_ page: String) -> Int { page.components(separatedBy: "<tr data-id=").count - 1 }

    /// The page at `path` once the renders the request started are done: what every reader sees after a write.
    private func settled(_ web: WebFixture, _ path: String) throws -> String {
        _ = try web.get(path)
        web.server.waitForListPageRenders()
        return try web.get(path).text
    }

    /// `count` requests for `path` sent at once on connections of their own (no cookie: each a new visitor), then
    /// their answers read.
    private func atOnce(_ web: WebFixture, _ path: String, count: Int = 8) throws -> [RawHTTPResponse] {
        let clients = try (0..<count).map { _ in try RawHTTPClient(port: web.port) }
        defer { for client in clients { client.close() } }
        let request = RawHTTPClient.requestBytes("GET", path, host: "127.0.0.1:\(web.port)")
        for client in clients { try client.send(request) }
        return try clients.map { try $0.readResponse() }
    }

    @Test(arguments: WebStoreKind.allCases)
    func concurrentMissesRenderOnceAndReadersSeeTheWriteOnceRendered(kind: WebStoreKind) throws {
        let web = try WebFixture(leads: sampleLeads, kind: kind)
        let before = web.server.listPageRenderCount
        let first = try atOnce(web, "/?sort=recent")
        #expect(first.allSatisfy { $0.status == 200 && rowCount($0.text) == 12 })
        #expect(web.server.listPageRenderCount == before + 1, "eight misses at one generation, one render")
        _ = try web.store().record([
            Sighting(
                prospect: Prospect(name: "Zed Newcomer", email: "zed@example.org"), source: "elsewhere",
                seenAt: Date(timeIntervalSince1970: 1_790_000_000))
        ])
        let during = try atOnce(web, "/?sort=recent")
        #expect(during.allSatisfy { $0.status == 200 })
        #expect(
            during.contains { !$0.text.contains("Zed Newcomer") && rowCount($0.text) == 12 },
            "the request that found the page stale was served the one before, not held for the render")
        web.server.waitForListPageRenders()
        #expect(web.server.listPageRenderCount == before + 2, "one render for the new generation")
        let after = try atOnce(web, "/?sort=recent")
        #expect(after.allSatisfy { $0.status == 200 && $0.text.contains("Zed Newcomer") && rowCount($0.text) == 13 })
        #expect(web.server.listPageRenderCount == before + 2, "and served from the cache from then on")
    }

    /// A session that wrote sees its write on its next page, while another session is served the page before it until
    /// the render is done.
    @Test(arguments: WebStoreKind.allCases)
    func theWriterSeesItsWriteAtOnceAndOthersOnceRendered(kind: WebStoreKind) throws {
        let writer = try WebFixture(leads: sampleLeads, kind: kind)
        let reader = WebFixture.sharingServer(of: writer)
        let ada = try #require(try writer.store().prospect(.email("ada@example.org")))
        #expect(try writer.get("/?tab=contacted").text.contains("No leads here yet."))
        #expect(try reader.get("/?tab=contacted").text.contains("No leads here yet."))
        #expect(try writer.post("/leads/\(ada.id)/mark", [("contacted", "true")]).status == 303)
        let stale = try reader.get("/?tab=contacted").text
        #expect(stale.contains("No leads here yet."), "another session is served the page before the write")
        let own = try writer.get("/?tab=contacted").text
        #expect(own.contains("Ada Lovelace") && rowCount(own) == 1, "the writer sees its write at once")
        writer.server.waitForListPageRenders()
        let fresh = try reader.get("/?tab=contacted").text
        #expect(fresh.contains("Ada Lovelace") && rowCount(fresh) == 1, "and the other once it is rendered")
    }

    @Test(arguments: WebStoreKind.allCases)
    func anotherConnectionsWriteShowsOnceRendered(kind: WebStoreKind) throws {
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
        let afterInsert = try settled(web, "/?sort=recent")
        #expect(afterInsert.contains("Zed Newcomer"))
        #expect(rowCount(afterInsert) == 13)
        #expect(afterInsert.contains("<span class=\"count\">13</span>"))
        _ = try other.setContacted(.email("ada@example.org"), true)
        let contacted = try settled(web, "/?tab=contacted")
        #expect(contacted.contains("Ada Lovelace") && rowCount(contacted) == 1)
        _ = try other.delete(.email("zed@example.org"))
        #expect(try !settled(web, "/?sort=recent").contains("Zed Newcomer"))
        #expect(try settled(web, "/?q=zed").contains("No lead matches"))
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
