import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import Testing

/// The counter a server polls to learn that another connection or process changed the store.
@Suite struct ChangeCounterTests {
    @Test func sqlitesCounterMovesWhenAnotherConnectionCommits() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.file("prospects.sqlite")
        let watcher = try SQLiteStore(path: path)
        let writer = try SQLiteStore(path: path, create: false)
        let before = try #require(try watcher.changeCounter())
        #expect(try watcher.changeCounter() == before, "reading changes nothing")
        _ = try writer.record([
            Sighting(prospect: Prospect(name: "Ada Lovelace", email: "ada@example.org"), source: "t", seenAt: Date())
        ])
        let afterInsert = try #require(try watcher.changeCounter())
        #expect(afterInsert != before)
        _ = try writer.setContacted(.email("ada@example.org"), true)
        #expect(try watcher.changeCounter() != afterInsert, "an update counts as a change too")
    }

    @Test func postgresHasNoCounter() throws {
        let store = try PostgresStore(url: try PostgresTestServer.shared().makeDatabase())
        #expect(try store.changeCounter() == nil)
    }
}
