import Foundation
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectStore

/// Schema 5 and 6: web sessions and form keys, run unchanged against both stores: what one connection (one server) adds, another finds
/// and can end; their writes leave the change generation alone.
@Suite("WebSessionStore conformance") struct WebSessionConformanceTests {
    private func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_780_000_000 + seconds) }

    private func session(_ key: String, used: Double, account: String? = nil, role: AccountRole? = nil) -> WebSession {
        WebSession(
            key: key, csrfToken: "token-\(key)", account: account, role: role, createdAt: date(used),
            lastUsedAt: date(used))
    }

    private func open(_ fixture: StoreFixture) throws -> any ProspectStore & WebSessionStore {
        try #require(try fixture.open() as? any ProspectStore & WebSessionStore)
    }

    @Test(arguments: StoreKind.allCases)
    func aSessionAddedByOneConnectionIsFoundAndEndedByAnother(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let serverA = try open(fixture)
        let serverB = try open(fixture)
        let generation = try serverA.changeCounter()
        try serverA.addSession(session("a", used: 0, account: "sam", role: .admin), capacity: 10)
        try serverA.addSession(session("b", used: 1), capacity: 10)
        #expect(try serverB.session(key: "a") == session("a", used: 0, account: "sam", role: .admin))
        #expect(try serverB.session(key: "b")?.account == nil)
        #expect(try serverB.session(key: "c") == nil)
        #expect(try serverB.touchSession(key: "a", at: date(100)))
        #expect(try serverA.session(key: "a")?.lastUsedAt == date(100))
        #expect(try !serverB.touchSession(key: "c", at: date(100)))
        #expect(try serverB.removeSession(key: "a"))
        #expect(try serverA.session(key: "a") == nil)
        #expect(try !serverA.removeSession(key: "a"))
        #expect(try serverA.changeCounter() == generation, "sessions change no page")
    }

    @Test(arguments: StoreKind.allCases)
    func expiredSessionsAreRemovedAndCapacityKeepsAnAccountsMostRecentlyUsed(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try open(fixture)
        try store.addSession(session("other", used: -1, account: "kim", role: .admin), capacity: 5)
        for index in 0..<5 {
            try store.addSession(session("s\(index)", used: Double(index), account: "sam", role: .staff), capacity: 5)
        }
        _ = try store.touchSession(key: "s0", at: date(50))
        try store.addSession(session("s5", used: 5, account: "sam", role: .staff), capacity: 5)
        #expect(try store.session(key: "other") != nil, "another account's sessions are not counted")
        // s1 was the least recently used.
        #expect(try store.session(key: "s1") == nil)
        for key in ["s0", "s2", "s3", "s4", "s5"] { #expect(try store.session(key: key) != nil, "\(key)") }
        #expect(try store.removeSessions(usedBefore: date(4)) == 3)
        #expect(try store.session(key: "s2") == nil && store.session(key: "s3") == nil)
        #expect(try store.session(key: "s4") != nil && store.session(key: "s0") != nil)
    }

    @Test(arguments: StoreKind.allCases)
    func theFirstFormKeyIsMadeOnceAndARotationAddsTheNewest(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let serverA = try open(fixture)
        let serverB = try open(fixture)
        #expect(try serverA.webKeys(limit: 2).isEmpty)
        try serverA.addWebKey(secret: "first", at: date(0), onlyIfNone: true)
        try serverB.addWebKey(secret: "second", at: date(1), onlyIfNone: true)
        #expect(try serverB.webKeys(limit: 2) == [WebKey(id: 1, secret: "first", createdAt: date(0))])
        let generation = try serverA.changeCounter()
        try serverB.addWebKey(secret: "rotated", at: date(2), onlyIfNone: false)
        try serverA.addWebKey(secret: "again", at: date(3), onlyIfNone: false)
        #expect(try serverA.webKeys(limit: 2).map(\.secret) == ["again", "rotated"])
        #expect(try serverA.changeCounter() == generation, "keys change no page")
    }
}
