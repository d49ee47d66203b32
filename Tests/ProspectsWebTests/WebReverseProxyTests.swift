import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import SystemCalls
import Testing
import WebTestSupport

@testable import ProspectsWeb

/// `contrib/prospects-nginx.conf` as shipped (names, ports and paths filled in), with Debian's nginx started on
/// loopback in front of serve: HTTPS pages, sign-in, Secure cookies; and `--trust-proxy`'s client address, by raw
/// requests.
@Suite struct WebReverseProxyTests {
    /// A port nobody listens on now (bound, read and closed).
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw SystemCallError("bind") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// curl with a cookie jar: status line, headers and body as text.
    static func curl(_ arguments: [String], jar: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments =
            ["--silent", "--insecure", "--include", "--max-time", "30", "-b", jar, "-c", jar] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theContribNginxConfigServesSignInAndPagesOverHTTPS() throws {
        let web = try WebFixture(leads: sampleLeads, accounts: WebSignInTests.accounts) {
            $0.requiresSignIn = true
            $0.trustProxy = true
        }
        let folder = web.folder
        let tls = try SelfSignedCertificate.files(in: folder.file("tls"), host: "127.0.0.1", environment: [:])
        let contrib = ProspectsProcess.sampleImages().deletingLastPathComponent().appendingPathComponent(
            "contrib/prospects-nginx.conf")
        let httpPort = try Self.freePort()
        let httpsPort = try Self.freePort()
        var site = try String(contentsOf: contrib, encoding: .utf8)
        for (shipped, here) in [
            ("listen 80;", "listen 127.0.0.1:\(httpPort);"), ("listen [::]:80;", ""),
            ("listen 443 ssl http2;", "listen 127.0.0.1:\(httpsPort) ssl http2;"), ("listen [::]:443 ssl http2;", ""),
            ("/etc/letsencrypt/live/leads.example.org/fullchain.pem", tls.certificate),
            ("/etc/letsencrypt/live/leads.example.org/privkey.pem", tls.key),
            ("http://127.0.0.1:8080", "http://127.0.0.1:\(web.port)"),
        ] {
            #expect(site.contains(shipped), "the shipped config has \(shipped)")
            site = site.replacingOccurrences(of: shipped, with: here)
        }
        let nginx = folder.file("nginx")
        try FileManager.default.createDirectory(atPath: nginx + "/temp", withIntermediateDirectories: true)
        try site.write(toFile: nginx + "/site.conf", atomically: true, encoding: .utf8)
        let main = """
            daemon off;
            master_process off;
            pid \(nginx)/nginx.pid;
            error_log \(nginx)/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(nginx)/temp/body;
                proxy_temp_path \(nginx)/temp/proxy;
                fastcgi_temp_path \(nginx)/temp/fastcgi;
                uwsgi_temp_path \(nginx)/temp/uwsgi;
                scgi_temp_path \(nginx)/temp/scgi;
                include \(nginx)/site.conf;
            }
            """
        try main.write(toFile: nginx + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", nginx + "/nginx.conf", "-p", nginx]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            // SIGKILL: nginx may have inherited a mask that blocks SIGTERM; with master_process off it is one process.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let jar = folder.file("cookies.txt")
        let base = "https://127.0.0.1:\(httpsPort)"
        try waitUntil("nginx answers", seconds: 20) {
            try Self.curl([base + "/static/app.css"], jar: folder.file("waiting.txt")).hasPrefix("HTTP/2 200")
        }
        let redirect = try Self.curl(["http://127.0.0.1:\(httpPort)/leads/1"], jar: jar)
        #expect(redirect.hasPrefix("HTTP/1.1 301"))
        #expect(redirect.lowercased().contains("location: https://127.0.0.1/leads/1"))

        let signIn = try Self.curl([base + "/signin"], jar: jar)
        #expect(signIn.lowercased().contains("set-cookie: prospects_form="))
        #expect(signIn.contains("; Secure"), "X-Forwarded-Proto: https makes the cookie Secure")
        let marker = try #require(signIn.range(of: "name=\"csrf\" value=\""))
        let token = String(signIn[marker.upperBound...].prefix { $0 != "\"" })
        let signedIn = try Self.curl(
            [
                base + "/signin", "--data-urlencode", "csrf=\(token)", "--data-urlencode", "name=ada",
                "--data-urlencode", "password=correct horse battery", "--data-urlencode", "next=/?tab=everyone",
            ],
            jar: jar)
        #expect(signedIn.hasPrefix("HTTP/2 303"), "\(signedIn.prefix(200))")
        #expect(signedIn.lowercased().contains("location: /?tab=everyone"))
        let list = try Self.curl([base + "/"], jar: jar)
        #expect(list.hasPrefix("HTTP/2 200") && list.contains("Ada Lovelace"))
        #expect(list.contains("content-security-policy: default-src 'none'"))
    }

    /// With `--trust-proxy` the sign-in delays count the address nginx saw; without, the header is the client's
    /// word and ignored.
    @Test(arguments: [true, false])
    func theClientsAddressComesFromXForwardedForOnlyWhenTrusted(trusted: Bool) throws {
        let clock = TestClock()
        let web = try WebFixture(accounts: WebSignInTests.accounts) {
            $0.requiresSignIn = true
            $0.trustProxy = trusted
            $0.now = { clock.now }
        }
        func signIn(_ password: String, from address: String) throws -> Int {
            let token = try web.csrfToken(from: "/signin")
            let body = "csrf=\(token)&name=ada&password=" + WebFixture.encode(password)
            return try web.request(
                "POST", "/signin",
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"),
                    ("X-Forwarded-For", "203.0.113.9, \(address)"),
                ], body: Array(body.utf8)
            ).status
        }
        for _ in 0..<3 { #expect(try signIn("wrong", from: "198.51.100.1") == 401) }
        #expect(try signIn("correct horse battery", from: "198.51.100.1") == 429)
        #expect(try signIn("correct horse battery", from: "198.51.100.2") == (trusted ? 303 : 429))
    }
}
