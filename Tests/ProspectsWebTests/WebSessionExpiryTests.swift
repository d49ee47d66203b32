import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest
import ProspectsService
import ProspectsTestSupport
import SystemCalls
import Testing

@testable import ProspectsWeb

/// The store-kept sessions of `SessionStore`: an idle one ends, each account's sessions are bounded, and the store
/// holds only a digest of each cookie.
@Suite struct WebSessionExpiryTests {
    static let sam = Account(name: "sam", role: .staff, passwordHash: "", createdAt: Date(timeIntervalSince1970: 0))
    static let kim = Account(name: "kim", role: .admin, passwordHash: "", createdAt: Date(timeIntervalSince1970: 0))

    @Test func anIdleSessionEndsAndAUsedOneLasts() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.file("prospects.sqlite")
        let clock = TestClock()
        let sessions = SessionStore(
            idleTimeout: 3600, touchEvery: 60, now: { clock.now }, records: try sessionRecords(at: path))
        let used = try sessions.create(signingIn: Self.sam)
        let idle = try sessions.create(signingIn: Self.sam)
        for _ in 0..<3 {
            clock.advance(1800)
            #expect(try sessions.session(id: used.id)?.csrfToken == used.csrfToken, "each use starts the hour again")
        }
        #expect(try sessions.session(id: idle.id) == nil, "unused for 90 minutes")
        clock.advance(3601)
        #expect(try sessions.session(id: used.id) == nil)
        // The store keeps a digest of the cookie, never the cookie.
        let store = try SQLiteStore(path: path, create: false)
        let fresh = try sessions.create(signingIn: Self.kim)
        #expect(try store.session(key: fresh.id) == nil)
        #expect(try store.session(key: ContentHash.sha256(Array(fresh.id.utf8)))?.csrfToken == fresh.csrfToken)
    }

    @Test func pastCapacityAnAccountsLeastRecentlyUsedAreForgottenAndNoOtherAccounts() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.file("prospects.sqlite")
        let clock = TestClock()
        let sessions = SessionStore(
            capacity: 3, touchEvery: 0, now: { clock.now }, records: try sessionRecords(at: path))
        let other = try sessions.create(signingIn: Self.kim)
        var made: [Session] = []
        for _ in 0..<3 {
            made.append(try sessions.create(signingIn: Self.sam))
            clock.advance(1)
        }
        _ = try sessions.session(id: made[0].id)  // used: now the most recent
        clock.advance(1)
        made.append(try sessions.create(signingIn: Self.sam))
        #expect(try sessions.session(id: made[1].id) == nil)
        for index in [0, 2, 3] { #expect(try sessions.session(id: made[index].id) != nil) }
        #expect(try sessions.session(id: other.id) != nil, "another account's session is not counted")
    }
}

/// Visitors' form tokens: signed by the store's key, made once for every server over the store; after a rotation
/// the token signed before still passes, after two it no longer does; nothing is written per visitor.
@Suite struct VisitorTokenTests {
    @Test func aTokenPassesAcrossServersAndOneRotationButNotTwo() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.file("prospects.sqlite")
        let clock = TestClock()
        let records = try sessionRecords(at: path)
        let serverA = SessionStore(now: { clock.now }, records: records)
        let serverB = SessionStore(now: { clock.now }, records: SessionRecords(storeOption: path, environment: [:]))
        let (visitor, nonce) = try serverA.visitor(nonce: nil)
        let cookie = try #require(nonce)
        #expect(try serverB.visitor(nonce: cookie).newNonce == nil, "a nonce of ours is kept")
        #expect(try serverB.isValidToken(visitor.csrfToken, for: serverB.visitor(nonce: cookie).session))
        let (other, _) = try serverB.visitor(nonce: nil)
        #expect(try !serverA.isValidToken(visitor.csrfToken, for: other), "bound to its own nonce")
        #expect(try !serverA.isValidToken("1." + String(repeating: "0", count: 64), for: visitor))
        let store = try SQLiteStore(path: path, create: false)
        #expect(try store.sessionCount() == 0)
        #expect(try store.webKeys(limit: 5).count == 1, "one key, made once")

        try serverB.rotateKey()
        clock.advance(61)  // server A reads the keys again
        #expect(try serverA.isValidToken(visitor.csrfToken, for: visitor), "the key before still passes")
        #expect(try serverA.visitor(nonce: cookie).session.csrfToken != visitor.csrfToken, "signed by the new key")
        try serverB.rotateKey()
        clock.advance(61)
        #expect(try !serverA.isValidToken(visitor.csrfToken, for: visitor), "two rotations later it no longer does")
    }
}

/// A clock the test moves.
final class TestClock: Sendable {
    let time = Locked(Date(timeIntervalSince1970: 1_780_000_000))
    func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    var now: Date { time.withLock { $0 } }
}

/// The session records of a new SQLite store at `path` (made here: the records open an existing store).
func sessionRecords(at path: String) throws -> SessionRecords {
    _ = try SQLiteStore(path: path)
    return SessionRecords(storeOption: path, environment: [:])
}
