import Foundation
import ProspectsTestSupport
import Testing
import WebTestSupport

/// Nothing is lost when `prospects serve` is killed mid-upload: what it was receiving stays in the uploads'
/// `.incoming/` folder, and the next start files it, here into the quarantine with its reason (it was cut short).
@Suite struct ServeRecoveryTests {
    /// The built `prospects serve` on `store`, and the port it printed.
    static func serve(_ store: String) throws -> (Process, UInt16) {
        try WebQuickScanTests.serve(store, port: 0)
    }

    static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func anUploadCutShortByAKilledServerIsFiledAtTheNextStart() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-serve-recovery")
        defer { folder.cleanup() }
        let store = folder.file("prospects.sqlite")
        let incoming = folder.file("prospects-uploads/.incoming")
        let uploadsFolder = folder.file("prospects-uploads")
        let (first, port) = try Self.serve(store)

        // A session and its form token, then an upload whose body stops halfway through the picture.
        let page = try RawHTTPClient(port: port).request("GET", "/scan")
        let cookie = try #require(page.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let marker = try #require(page.text.range(of: "name=\"csrf\" value=\""))
        let token = String(page.text[marker.upperBound...].prefix { $0 != "\"" })
        let picture = PNGFixtures.contactCode("Cut Short\ncut@example.org", moduleSize: 16)
        var body = MultipartBody()
        body.add(field: "csrf", value: token)
        body.add(file: "pictures", fileName: "IMG_0042.png", contentType: "image/png", content: picture)
        let whole = body.finished
        let sent = whole.count - picture.count / 2
        let client = try RawHTTPClient(port: port)
        defer { client.close() }
        let receipt = "00112233445566778899aabb"
        let request = RawHTTPClient.requestBytes(
            "POST", "/scan?receipt=\(receipt)", host: "127.0.0.1:\(port)",
            headers: [("Cookie", cookie), ("Content-Type", body.contentType)], body: whole)
        try client.send(Array(request.prefix(request.count - (whole.count - sent))))
        // The server has written part of the picture when the file in .incoming is no longer empty.
        var waited = 0
        while waited < 300,
            !uploadsWaiting(in: uploadsFolder).contains(where: {
                ((try? FileManager.default.attributesOfItem(atPath: incoming + "/" + $0)[.size]) as? Int ?? 0) > 0
            })
        {
            usleep(100_000)
            waited += 1
        }
        try #require(uploadsWaiting(in: uploadsFolder).count == 1, "the upload being received is in .incoming")
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(uploadsWaiting(in: uploadsFolder).count == 1, "a killed server leaves it there")

        let (second, secondPort) = try Self.serve(store)
        defer {
            kill(second.processIdentifier, SIGTERM)
            second.waitUntilExit()
        }
        #expect(uploadsWaiting(in: uploadsFolder).isEmpty, "filed before serving")
        let rejected = Self.names(in: folder.file("prospects-uploads/rejected"))
        #expect(rejected.count == 2, "the file and its reason: \(rejected)")
        #expect(rejected.contains("IMG_0042.png"), "the phone's file name kept: \(rejected)")
        let reasonFile = try #require(rejected.first { $0.hasSuffix(".reason.json") })
        let reason = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: folder.file("prospects-uploads/rejected/" + reasonFile))))
        let message = (reason as? [String: Any])?["message"] as? String
        #expect(message?.isEmpty == false)
        #expect(Self.names(in: folder.file("prospects-uploads/archive")).isEmpty)
        // The phone asks what became of its upload: the picture cut short, under its own name, and why.
        let answer = try RawHTTPClient(port: secondPort).request(
            "GET", "/scan/receipts/\(receipt)", headers: [("Cookie", cookie)])
        #expect(answer.status == 200)
        #expect(answer.text.contains("stopped while this upload was arriving"))
        #expect(answer.text.contains("IMG_0042.png") && answer.text.contains("rejected"))
        let unknown = try RawHTTPClient(port: secondPort).request("GET", "/scan/receipts/ffffffffffffffff")
        #expect(unknown.status == 404 && unknown.text.contains("Nothing of this upload"))
    }
}
