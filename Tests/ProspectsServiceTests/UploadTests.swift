import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest
import ProspectsTestSupport
import Testing

@testable import ProspectsService

/// `ProspectsService.upload`: pictures a front-end received, through ingest, filed in the uploads folder.
@Suite struct UploadTests {
    @Test func eachPictureIsIngestedFiledAndSaidInTheCLIsWords() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let service = ProspectsService(location: .sqlite(path: folder.file("prospects.sqlite")))
        let uploads = try UploadFolder(path: folder.file("uploads"))
        var received: [PictureUpload] = []
        for (name, bytes) in [
            ("hedy.png", PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net")),
            ("again.png", PNGFixtures.contactCode("Hedy Lamarr\nhedy@example.net")),
            ("notes.txt", Array("hello".utf8)),
        ] {
            // Where an HTTP server streams a request's files: inside the folder's `.incoming/`.
            let path = uploads.incoming + "/streamed-" + name
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            received.append(PictureUpload(path: path, clientName: name))
        }
        let report = try service.upload(received, into: uploads, context: CollectionContext(collectedBy: "sam"))
        #expect(report.map(\.fileName) == ["hedy.png", "again.png", "notes.txt"])
        #expect(report[0].lines == [.init(kind: .added, text: "added: Hedy Lamarr <hedy@example.net>")])
        #expect(report[1].lines.map(\.kind) == [.duplicate])
        #expect(report[2].lines.map(\.kind) == [.rejected])
        let stored = try #require(try service.store().prospect(.email("hedy@example.net")))
        #expect(stored.firstCollectedBy == "sam")
        let archived = try FileManager.default.contentsOfDirectory(atPath: uploads.archive)
        #expect(archived.count == 2)
        let rejected = try FileManager.default.contentsOfDirectory(atPath: uploads.rejected)
        #expect(rejected.contains { $0.hasSuffix("notes.txt") })
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: uploads.incoming).filter { !$0.hasPrefix(".") }.isEmpty,
            "nothing left behind")
    }

    /// A browser user can give no `--pixel-limit`: the page says the size and the limit, and names no option.
    @Test func aPictureOverThePixelLimitIsSaidWithoutTheCLIsOption() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let service = ProspectsService(location: .sqlite(path: folder.file("prospects.sqlite")))
        let uploads = try UploadFolder(path: folder.file("uploads"))
        let path = uploads.incoming + "/streamed-huge.png"
        try Data(PNGFixtures.hugeDimensionsHeader()).write(to: URL(fileURLWithPath: path))
        let report = try service.upload(
            [PictureUpload(path: path, clientName: "huge.png")], into: uploads, context: CollectionContext())
        #expect(
            report.first?.lines == [
                .init(kind: .rejected, text: "rejected: a 30,000 × 30,000 picture (900 MP) is over the 50 MP limit")
            ])
    }
}
