import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import QRDecoding
import Testing
import WebTestSupport

@testable import ProspectsService

/// `POST /scan/frame`, the live camera's endpoint, by raw requests: a frame with a code adds its lead and is kept
/// in the archive, the same code again is not counted, a frame without a code leaves nothing, and a frame without
/// the form token is refused.
@Suite struct WebCameraFrameTests {
    static func frame(_ web: WebFixture, _ picture: [UInt8], token: String? = nil) throws -> (Int, [String: Any]) {
        var body = MultipartBody()
        body.add(field: "csrf", value: try token ?? web.csrfToken())
        body.add(file: "frame", fileName: "camera.jpg", contentType: "image/jpeg", content: picture)
        let response = try web.request(
            "POST", "/scan/frame", headers: [("Content-Type", body.contentType)], body: body.finished)
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return (response.status, json)
    }

    static func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder)
    }

    @Test func aCodeCountsOnceWhileInViewAndAFrameWithoutOneLeavesNothing() throws {
        let web = try WebFixture()
        let uploads = web.folder.file("uploads")
        let code = PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net")
        let blank = PNGFixtures.png(.init(width: 64, height: 48, pixels: [UInt8](repeating: 255, count: 64 * 48)))

        let (status, first) = try Self.frame(web, code)
        #expect(status == 200)
        #expect(first["status"] as? String == "scanned")
        let lines = first["lines"] as? [[String: String]]
        #expect(lines == [["kind": "added", "text": "added: Hedy Lamarr <hedy@example.net>"]])
        for _ in 0..<3 { #expect(try Self.frame(web, code).1["status"] as? String == "seen") }
        #expect(try Self.frame(web, blank).1["status"] as? String == "none")

        #expect(try web.store().count() == 1)
        #expect(try Self.names(in: uploads + "/archive").count == 1, "only the frame that scanned is kept")
        #expect(try Self.names(in: uploads + "/rejected").isEmpty)
        #expect(uploadsWaiting(in: uploads).isEmpty)
    }

    @Test func aFrameWithoutTheFormTokenIsRefused() throws {
        let web = try WebFixture()
        _ = try web.csrfToken()
        let (status, _) = try Self.frame(web, PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net"), token: "x")
        #expect(status == 403)
        #expect(try web.store().count() == 0)
    }
}
