import Foundation
import HTTPServer
import Testing
import WebTestSupport

@Suite struct TLSTests {
    /// A self-signed certificate and key for 127.0.0.1, made by Debian's openssl.
    private func selfSigned(in folder: UploadFolder) throws -> (certificate: String, key: String) {
        let certificate = folder.path + "/cert.pem"
        let key = folder.path + "/key.pem"
        let made = try run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", certificate,
            ])
        try #require(made.status == 0)
        return (certificate, key)
    }

    @Test func servesHTTPSWithAPEMCertificateAndKey() throws {
        let folder = try UploadFolder()
        let files = try selfSigned(in: folder)
        var configuration = testConfiguration()
        configuration.tls = try TLSCredentials(certificateFile: files.certificate, privateKeyFile: files.key)
        let server = try HTTPServer(configuration: configuration) { request in
            .text("secure \(request.method) \(request.queryValue("q") ?? "-")")
        }
        let fetched = try run(
            "/usr/bin/curl", ["--silent", "--insecure", "--max-time", "30", "https://127.0.0.1:\(server.port)/?q=a+b"])
        #expect(fetched.status == 0)
        #expect(fetched.output == "secure GET a b")
        let plain = try run(
            "/usr/bin/curl", ["--silent", "--max-time", "30", "http://127.0.0.1:\(server.port)/"])
        #expect(plain.output != "secure GET -")
    }

    /// A body sent chunked over TLS that passes the limit is answered 413 with the handler's refusal, through the
    /// TLS session libmicrohttpd holds, before the connection is closed (curl, a real client, sends it).
    @Test func answersAChunkedBodyCutAtTheLimitWith413OverTLS() throws {
        struct Handler: HTTPHandler {
            func respond(to request: HTTPRequest) -> HTTPResponse { .text("kept") }
            func refused(_ refusal: HTTPRefusal) -> HTTPResponse {
                var response = HTTPResponse.text("refused \(refusal.status) \(refusal.path)", status: refusal.status)
                response.headers.set("X-Refused-By", "handler")
                return response
            }
        }
        let folder = try UploadFolder()
        let files = try selfSigned(in: folder)
        var configuration = testConfiguration()
        configuration.maximumBodySize = 100_000
        configuration.tls = try TLSCredentials(certificateFile: files.certificate, privateKeyFile: files.key)
        let server = try HTTPServer(configuration: configuration, handler: Handler())
        // Python's ssl module (Debian's python3) as the client: it sends 16 KiB chunks until an answer is there to
        // read, as a browser does, then reads it to the end.
        let answer = try ChunkedTLSFlood.answer(
            port: server.port, head: "POST /api HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain", chunkSize: 0x4000)
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(200))")
        #expect(answer.contains("X-Refused-By: handler"))
        #expect(answer.hasSuffix("refused 413 /api"))
    }

    @Test func refusesAKeyThatIsNotPEMAndAFileThatCannotBeRead() throws {
        let folder = try UploadFolder()
        let files = try selfSigned(in: folder)
        var configuration = testConfiguration()
        configuration.tls = TLSCredentials(
            certificatePEM: try String(contentsOfFile: files.certificate, encoding: .utf8),
            privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n")
        #expect(throws: HTTPServerError.tlsCredentialsRejected) {
            try HTTPServer(configuration: configuration) { _ in .text("") }
        }
        #expect(throws: HTTPServerError.tlsFileUnreadable(path: folder.path + "/none.pem")) {
            try TLSCredentials(certificateFile: files.certificate, privateKeyFile: folder.path + "/none.pem")
        }
    }
}
