import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import ProspectsWeb
import Testing
import WebTestSupport

@testable import ProspectsService

/// Who scanned, and which picture: on loopback without sign-in an upload and a camera frame record the user running
/// `serve` as their collector (an account when signed in), and the scan history names the picture where it was
/// archived, not the `.incoming/` path it was read at.
@Suite struct WebCollectorTests {
    static func fixture() throws -> WebFixture {
        try WebFixture { $0.environment = ["LOGNAME": "booth-laptop"] }
    }

    @Test func anUploadRecordsWhoRunsServeAndItsArchivedPicture() throws {
        let web = try Self.fixture()
        let code = PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net")
        #expect(try WebUploadTests.upload(web, [("booth.png", code)]) == 303)
        // The same person again in another picture: a later scan, renamed as well.
        let again = PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net", moduleSize: 5)
        #expect(try WebUploadTests.upload(web, [("booth.png", again)]) == 303)
        let hedy = try #require(try web.leads()["Hedy Lamarr"])
        let history = try web.store().history(of: hedy.id)
        try #require(history.count == 2)
        #expect(history.map(\.collectedBy) == ["booth-laptop", "booth-laptop"])
        #expect(history[0].source.hasSuffix("/uploads/archive/booth.png"), "\(history[0].source)")
        #expect(history[1].source.hasSuffix("/uploads/archive/booth-1.png"), "\(history[1].source)")
        for record in history {
            #expect(FileManager.default.fileExists(atPath: record.source), "the picture named is there")
            #expect(!record.source.contains(".incoming"))
        }
        let page = try web.get("/leads/\(hedy.id)").text
        #expect(page.contains("archive/booth-1.png") && page.contains("booth-laptop"))
    }

    @Test func aCameraFrameRecordsWhoRunsServeAndItsArchivedPicture() throws {
        let web = try Self.fixture()
        let (status, answer) = try WebCameraFrameTests.frame(
            web, PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net"))
        #expect(status == 200 && answer["status"] as? String == "scanned")
        let hedy = try #require(try web.leads()["Hedy Lamarr"])
        let history = try web.store().history(of: hedy.id)
        #expect(history.map(\.collectedBy) == ["booth-laptop"])
        let source = try #require(history.first?.source)
        #expect(source.contains("/uploads/archive/") && FileManager.default.fileExists(atPath: source), "\(source)")
    }
}
