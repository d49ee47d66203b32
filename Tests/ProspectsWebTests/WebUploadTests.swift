import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import Testing
import WebTestSupport

@testable import ProspectsService

/// Every uploaded picture is kept, as `watch` keeps files: in the archive once its codes are in the list, in the
/// quarantine with its reason when refused; never deleted, never over another upload of the same name.
@Suite struct WebUploadTests {
    /// POSTs pictures to the scan form and returns the status.
    static func upload(_ web: WebFixture, _ files: [(name: String, content: [UInt8])]) throws -> Int {
        var body = MultipartBody()
        body.add(field: "csrf", value: try web.csrfToken())
        for file in files {
            body.add(file: "pictures", fileName: file.name, contentType: "image/png", content: file.content)
        }
        return try web.request("POST", "/scan", headers: [("Content-Type", body.contentType)], body: body.finished)
            .status
    }

    static func names(in folder: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder))
    }

    @Test func anAddedPictureIsInTheArchiveAndARejectedOneInTheQuarantineWithItsReason() throws {
        let web = try WebFixture()
        let code = PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net")
        let status = try Self.upload(web, [("new.png", code), ("notes.png", Array("hello".utf8))])
        #expect(status == 303)
        let uploads = web.folder.file("uploads")
        #expect(try Self.names(in: uploads + "/archive") == ["new.png"])
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: uploads + "/archive/new.png"))) == code)
        #expect(try Self.names(in: uploads + "/rejected") == ["notes.png", "notes.png.reason.json"])
        let reason = try String(contentsOfFile: uploads + "/rejected/notes.png.reason.json", encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reason.utf8)) as? [String: Any])
        #expect(object["file"] as? String == "notes.png")
        #expect((object["kind"] as? String)?.isEmpty == false)
        #expect((object["message"] as? String)?.isEmpty == false)
        #expect(uploadsWaiting(in: uploads).isEmpty, "nothing is left waiting once answered")
        #expect(try web.leads()["Hedy Lamarr"]?.firstSource.hasSuffix("new.png") == true)
    }

    @Test func twoUploadsOfTheSameNameAreBothKept() throws {
        let web = try WebFixture()
        let first = PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net")
        let second = PNGFixtures.contactCode("Ada Lovelace\nada@example.org")
        #expect(try Self.upload(web, [("IMG_0001.png", first)]) == 303)
        #expect(try Self.upload(web, [("IMG_0001.png", second)]) == 303)
        #expect(try Self.upload(web, [("IMG_0001.png", first)]) == 303)
        let archive = web.folder.file("uploads/archive")
        #expect(try Self.names(in: archive) == ["IMG_0001.png", "IMG_0001-1.png", "IMG_0001-2.png"])
        let kept = try Self.names(in: archive).map { try Data(contentsOf: URL(fileURLWithPath: archive + "/" + $0)) }
        #expect(Set(kept) == [Data(first), Data(second)])
        #expect(try web.store().count() == 2)
    }

    /// The scan page gives its form a receipt; what the upload became can be asked for by it afterwards.
    @Test func anUploadGivenAReceiptCanBeAskedAboutAfterwards() throws {
        let web = try WebFixture()
        let page = try web.get("/scan").text
        let marker = try #require(page.range(of: "action=\"/scan?receipt="))
        let receipt = String(page[marker.upperBound...].prefix { $0 != "\"" })
        #expect(receipt.count == 16)
        #expect(page.contains("href=\"/scan/receipts/\(receipt)\""))
        var body = MultipartBody()
        body.add(field: "csrf", value: try web.csrfToken())
        body.add(
            file: "pictures", fileName: "IMG_0100.png", contentType: "image/png",
            content: PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net"))
        let posted = try web.request(
            "POST", "/scan?receipt=\(receipt)", headers: [("Content-Type", body.contentType)], body: body.finished)
        #expect(posted.status == 303)
        let answer = try web.get("/scan/receipts/\(receipt)")
        #expect(answer.status == 200)
        #expect(answer.text.contains("received whole"))
        #expect(answer.text.contains("IMG_0100.png") && answer.text.contains("added: Hedy Lamarr"))
    }

    @Test func aClientFileNameNeverLeavesTheUploadsFolder() throws {
        let web = try WebFixture()
        let code = PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net")
        #expect(try Self.upload(web, [("../../escape.png", code)]) == 303)
        #expect(try Self.names(in: web.folder.file("uploads/archive")) == ["_.._escape.png"])
        #expect(!FileManager.default.fileExists(atPath: web.folder.file("escape.png")))
    }
}
