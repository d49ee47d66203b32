import Foundation
import ProspectsTestSupport
import Testing

@testable import ProspectStore

#if canImport(Glibc)
    import Glibc
#endif

@Suite("PostgresStore")
struct PostgresStoreTests {
    @Test func unreachableServerFailsFastWithoutThePassword() throws {
        let port = try closedPort()
        let url = "postgres://prospects:secret@127.0.0.1:\(port)/prospects"
        let started = Date()
        expectStoreError({ () throws(StoreError) in _ = try StoreLocation.postgres(url: url).open() }) { error in
            guard case .unavailable(let message) = error else { return false }
            return !message.contains("secret") && message.contains("***") && !message.contains("\n")
        }
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test func aWrongPasswordIsUnavailableAndNotEchoed() throws {
        // The test server trusts every local connection, so point libpq at a password-requiring URL of a
        // server that does not exist on a Unix socket path instead: the message must still hide the password.
        let url = "postgresql://user:hunter2@/db?host=/nonexistent-folder&connect_timeout=1"
        expectStoreError({ () throws(StoreError) in _ = try PostgresStore(url: url) }) { error in
            guard case .unavailable(let message) = error else { return false }
            return !message.contains("hunter2")
        }
    }

    @Test func malformedURLIsAnInvalidLocation() {
        expectStoreError({ () throws(StoreError) in _ = try PostgresStore(url: "postgres://host/db?no_such_option=1") })
        {
            error in
            if case .invalidLocation = error { true } else { false }
        }
    }

    @Test func errorsKeepRowValuesOutOfTheMessage() throws {
        let connection = try PostgresConnection(url: try PostgresTestServer.shared().makeDatabase())
        try connection.execute("CREATE TABLE t (k text UNIQUE)")
        try connection.execute("INSERT INTO t (k) VALUES ($1)", [.text("secret@example.com")])
        expectStoreError({ () throws(StoreError) in
            try connection.execute("INSERT INTO t (k) VALUES ($1)", [.text("secret@example.com")])
        }) { error in
            guard case .database(let code, let message, _) = error else { return false }
            return code == 23505 && message.contains("23505") && !error.message.contains("secret")
        }
    }

    @Test func manyStoresStartingAtOnceMigrateOnce() throws {
        let url = try PostgresTestServer.shared().makeDatabase()
        let errors = runOnThreads(4) { _, start in
            start.wait()
            _ = try PostgresStore(url: url)
        }
        #expect(errors == [])
        let versions = try PostgresConnection(url: url).execute("SELECT version FROM schema_version").rows
        #expect(versions.map(\.values) == [["2"]])
    }
}

/// A local TCP port nothing listens on: bound, then closed.
private func closedPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    try #require(bound)
    return Int(UInt16(bigEndian: address.sin_port))
}
