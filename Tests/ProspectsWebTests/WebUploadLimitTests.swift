import Foundation
import ProspectsTestSupport
import ProspectsWeb
import SystemCalls
import Testing
import WebTestSupport

/// Bodies over the limit, by raw requests: cut as soon as they pass it, with or without a Content-Length, and
/// answered with a page that carries the security headers and is logged.
@Suite struct WebUploadLimitTests {
    static let fileLimit = 1 << 20

    static func fixture(log: Locked<[String]>) throws -> WebFixture {
        try WebFixture {
            $0.maximumUploadFiles = 2
            $0.maximumUploadFileSize = fileLimit
            $0.log = { line in log.withLock { $0.append(line) } }
        }
    }

    /// A 2 GiB upload streamed chunked (no Content-Length to refuse it by): the server answers 413 once the picture
    /// passes its limit, long before the end; the client has sent at most the limit and what the sockets' buffers
    /// hold when it reads the answer.
    @Test func aChunkedUploadOfTwoGigabytesIsCutAtTheLimitAndAnswered413() throws {
        let log = Locked<[String]>([])
        let web = try Self.fixture(log: log)
        let token = try web.csrfToken()
        let client = try RawHTTPClient(port: web.port)
        defer { client.close() }
        client.setSendBuffer(256 << 10)
        let boundary = "crowd-boundary"
        var head = "POST /scan HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nCookie: \(web.cookie ?? "")\r\n"
        head += "Content-Type: multipart/form-data; boundary=\(boundary)\r\nTransfer-Encoding: chunked\r\n\r\n"
        let start = Array(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(token)\r\n--\(boundary)\r\n"
                + "Content-Disposition: form-data; name=\"pictures\"; filename=\"huge.png\"\r\n"
                + "Content-Type: image/png\r\n\r\n").utf8)
        func chunk(_ bytes: [UInt8]) -> [UInt8] {
            Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + Array("\r\n".utf8)
        }
        try client.send(Array(head.utf8) + chunk(start))
        let piece = chunk([UInt8](repeating: 0x42, count: 64 << 10))
        let total: Int = 2 << 30
        var sent = start.count
        while sent < total, !client.hasSomethingToRead() {
            do {
                try client.send(piece)
            } catch {
                break  // the server closed the connection after its answer
            }
            sent += 64 << 10
        }
        let response = try client.readResponse(method: "POST")
        #expect(response.status == 413)
        // The form limit (two pictures and 1 MiB of fields), plus the socket buffers on both sides.
        let formLimit = 2 * Self.fileLimit + (1 << 20)
        #expect(sent <= formLimit + (8 << 20), "sent \(sent) bytes of \(total)")
        #expect(response.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(response.header("X-Frame-Options") == "DENY")
        #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(response.text.contains("Too large") && response.text.contains("fewer or"))
        #expect(log.withLock { $0 }.contains { $0.hasPrefix("POST /scan 413 refused: ") })
        let archive = web.folder.file("uploads/archive")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: archive)) ?? []).isEmpty, "nothing kept")
        #expect(try web.get("/").status == 200, "the server goes on")
    }

    @Test func aDeclaredBodyOverTheLimitIsRefusedBeforeItIsReadWithAPage() throws {
        let log = Locked<[String]>([])
        let web = try Self.fixture(log: log)
        let client = try RawHTTPClient(port: web.port)
        defer { client.close() }
        try client.send(
            Array(
                ("POST /scan HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nContent-Length: \(3 << 30)\r\n"
                    + "Content-Type: multipart/form-data; boundary=x\r\n\r\n").utf8))
        let response = try client.readResponse(method: "POST")
        #expect(response.status == 413)
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.text.contains("Too large"))
        #expect(log.withLock { $0 }.contains { $0.hasPrefix("POST /scan 413 refused: ") })
    }
}
