import Foundation
import ProspectsTestSupport
import Testing
import WebTestSupport

/// The built `prospects serve`: it prints its address, serves, and ends cleanly on SIGTERM; off loopback it refuses.
@Suite struct ServeCommandTests {
    @Test func printsItsAddressServesAndStopsOnSIGTERM() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-serve-test")
        defer { folder.cleanup() }
        let store = folder.file("prospects.sqlite")
        let systemd = try NotifySocket()
        let process = Process()
        process.executableURL = ProspectsProcess.executable
        process.arguments = ["serve", "--store", store, "--port", "0"]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = systemd.address
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let address = ServeAddressLine(readingFrom: out)
        #expect(address.line.hasPrefix("serving http://127.0.0.1:"))
        let port = try #require(address.port)
        let client = try RawHTTPClient(port: port)
        let page = try client.request("GET", "/")
        client.close()
        #expect(page.status == 200)
        #expect(page.text.contains("Everyone"))
        #expect(FileManager.default.fileExists(atPath: store), "a missing store is made, as ingest makes it")
        #expect(
            FileManager.default.fileExists(atPath: folder.file("prospects-uploads/archive")),
            "uploads are kept beside the store by default")
        var heard: [String] = []
        while !heard.contains("READY=1"), let message = systemd.receive() {
            heard += message.split(separator: "\n").map(String.init)
        }
        #expect(heard.contains("READY=1"))
        #expect(heard.contains("STATUS=serving http://127.0.0.1:\(port)/"))
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(systemd.receive()?.contains("STOPPING=1") == true)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.contains("stopped"))
        #expect(stderr.contains("GET / 200 "), "one line per request: \(stderr)")
    }

    @Test func refusesAnAddressOtherThanLoopbackWithExit78() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-serve-test")
        defer { folder.cleanup() }
        let result = try ProspectsProcess.run(
            ["serve", "--store", folder.file("p.sqlite"), "--host", "0.0.0.0", "--port", "0"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("refusing to serve on 0.0.0.0"))
        #expect(result.stderr.contains("accounts"))
        let badPort = try ProspectsProcess.run(["serve", "--port", "70000"])
        #expect(badPort.status == 64)
        let halfTLS = try ProspectsProcess.run(["serve", "--tls-cert", folder.file("cert.pem")])
        #expect(halfTLS.status == 64)
        #expect(halfTLS.stderr.contains("--tls-cert and --tls-key go together"))
        let signInWithoutAccounts = try ProspectsProcess.run(
            ["serve", "--store", folder.file("p.sqlite"), "--sign-in", "--port", "0"])
        #expect(signInWithoutAccounts.status == 78)
        #expect(signInWithoutAccounts.stderr.contains("prospects user add"))
    }
}
