import Foundation
import ProspectStore
import ProspectsCore
import ProspectsService
import ProspectsTestSupport
import SystemCalls
import Testing
import WebTestSupport

@testable import ProspectsWeb

/// HTTPS by curl: with a self-signed certificate made once and kept, or with the files given; cookies are Secure.
@Suite struct WebTLSTests {
    /// `curl --insecure --include` of `url`: the status line, headers and body as text.
    static func curl(_ url: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--insecure", "--include", "--max-time", "30", url]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func configuration(_ folder: TemporaryDirectory) -> WebConfiguration {
        var configuration = WebConfiguration()
        configuration.port = 0
        configuration.storeOption = folder.file("prospects.sqlite")
        configuration.threadCount = 2
        return configuration
    }

    @Test func aSelfSignedCertificateIsMadeOnceKeptBesideTheStoreAndCookiesAreSecure() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-web-tls")
        defer { folder.cleanup() }
        var configuration = Self.configuration(folder)
        configuration.tlsSelfSigned = true
        let certificate = folder.file("prospects-tls/cert.pem")
        let first: Data
        do {
            let server = try WebServer(configuration: configuration)
            defer { server.stop() }
            #expect(server.url.hasPrefix("https://127.0.0.1:"))
            let page = try Self.curl("https://127.0.0.1:\(server.port)/")
            #expect(page.hasPrefix("HTTP/1.1 200"))
            #expect(page.contains("Everyone"))
            let cookie = try #require(page.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
            #expect(cookie.hasSuffix("; Secure"))
            first = try Data(contentsOf: URL(fileURLWithPath: certificate))
            let key = try FileManager.default.attributesOfItem(atPath: folder.file("prospects-tls/key.pem"))
            #expect((key[.posixPermissions] as? Int) == 0o600, "the key is its owner's only")
        }
        let again = try WebServer(configuration: configuration)
        defer { again.stop() }
        #expect(try Self.curl("https://127.0.0.1:\(again.port)/").hasPrefix("HTTP/1.1 200"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: certificate)) == first, "kept for the next start")
    }

    @Test func givenCertificateAndKeyFilesServeHTTPS() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-web-tls")
        defer { folder.cleanup() }
        var made = Self.configuration(folder)
        made.tlsSelfSigned = true
        made.tlsFolder = folder.file("made")
        try WebServer(configuration: made).stop()
        var configuration = Self.configuration(folder)
        configuration.tls = TLSFiles(certificate: folder.file("made/cert.pem"), key: folder.file("made/key.pem"))
        let server = try WebServer(configuration: configuration)
        defer { server.stop() }
        let page = try Self.curl("https://127.0.0.1:\(server.port)/scan")
        #expect(page.hasPrefix("HTTP/1.1 200"))
        #expect(page.contains("; Secure"))
        // Plain HTTP sent to the HTTPS port: a page that says to use https://, not a connection closed.
        let plainAnswer = try Self.curl("http://127.0.0.1:\(server.port)/scan")
        #expect(plainAnswer.hasPrefix("HTTP/1.1 400"), "\(plainAnswer.prefix(300))")
        #expect(plainAnswer.contains("href=\"https://127.0.0.1:\(server.port)/scan\""))
        #expect(plainAnswer.contains("Content-Security-Policy: default-src 'none'"))
        #expect(try Self.curl("https://127.0.0.1:\(server.port)/scan").hasPrefix("HTTP/1.1 200"), "TLS still served")
        var plain = Self.configuration(folder)
        plain.port = 0
        let http = try WebServer(configuration: plain)
        defer { http.stop() }
        #expect(!(try Self.curl("http://127.0.0.1:\(http.port)/scan")).contains("; Secure"), "plain HTTP: not Secure")
    }

    /// A body sent chunked over HTTPS that passes the limit: the page answering 413, with the security headers,
    /// reaches the client before the connection is closed, as over plain HTTP (Python's ssl module as the client,
    /// sending until an answer is there to read).
    @Test func aChunkedBodyOverTheLimitIsAnswered413OverHTTPS() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-web-tls")
        defer { folder.cleanup() }
        var configuration = Self.configuration(folder)
        configuration.tlsSelfSigned = true
        let server = try WebServer(configuration: configuration)
        defer { server.stop() }
        let answer = try ChunkedTLSFlood.answer(
            port: server.port, head: "POST /scans/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json",
            chunkSize: 0x10000, filler: " ")
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(300))")
        #expect(answer.contains("Content-Security-Policy: default-src 'none'"))
        #expect(answer.contains("X-Frame-Options: DENY"))
        #expect(answer.contains("Too large"))
        #expect(try Self.curl("https://127.0.0.1:\(server.port)/scan").hasPrefix("HTTP/1.1 200"), "the server goes on")
    }

    @Test func withoutOpensslTheSelfSignedOptionSaysWhy() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-web-tls")
        defer { folder.cleanup() }
        var configuration = Self.configuration(folder)
        configuration.tlsSelfSigned = true
        configuration.environment = ["PATH": folder.path]
        #expect {
            try WebServer(configuration: configuration)
        } throws: { error in
            guard case .tlsUnavailable(let why) = error as? WebServerError else { return false }
            return why.contains("openssl")
        }
    }

    /// Bound to every address, as at a booth: the certificate names an address a phone on the network uses, the
    /// server prints that address (not 0.0.0.0) and the certificate's fingerprint, and the next start reuses it;
    /// a certificate made for loopback only is made anew.
    @Test func onEveryAddressTheCertificateNamesTheMachinesAddressAndIsReused() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-web-tls")
        defer { folder.cleanup() }
        let addresses = MachineAddresses.interfaceAddresses().filter { !$0.contains(":") }
        let address = try #require(addresses.first, "this machine has a non-loopback IPv4 address")
        var configuration = Self.configuration(folder)
        configuration.tlsSelfSigned = true
        let certificate = folder.file("prospects-tls/cert.pem")
        try WebServer(configuration: configuration).stop()  // loopback only
        let loopbackOnly = try Data(contentsOf: URL(fileURLWithPath: certificate))
        #expect(!SelfSignedCertificate.named(in: certificate, openssl: "/usr/bin/openssl").contains("IP:" + address))

        _ = try ProspectsService(storeOption: configuration.storeOption, environment: [:]).addAccount(
            name: "ada", role: .admin, password: "correct horse battery", iterations: 1_000)
        configuration.host = "0.0.0.0"
        let first: Data
        do {
            let server = try WebServer(configuration: configuration)
            defer { server.stop() }
            first = try Data(contentsOf: URL(fileURLWithPath: certificate))
            #expect(first != loopbackOnly, "made anew: the old one did not name the machine's addresses")
            let names = SelfSignedCertificate.named(in: certificate, openssl: "/usr/bin/openssl")
            #expect(names.isSuperset(of: addresses.map { "IP:" + $0 }), "\(names)")
            #expect(server.url == "https://\(address):\(server.port)/")
            #expect(!server.urls.contains { $0.contains("0.0.0.0") })
            let page = try Self.curl("https://\(address):\(server.port)/signin")
            #expect(page.hasPrefix("HTTP/1.1 200"))
            let fingerprint = try #require(server.certificateFingerprint)
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = ["x509", "-in", certificate, "-noout", "-fingerprint", "-sha256"]
            let out = Pipe()
            openssl.standardOutput = out
            try openssl.run()
            let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            openssl.waitUntilExit()
            #expect(said.contains("=" + fingerprint), "\(said) against \(fingerprint)")
        }
        let again = try WebServer(configuration: configuration)
        defer { again.stop() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: certificate)) == first, "reused at the next start")
    }
}
