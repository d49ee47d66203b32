import Foundation
import ProspectStore
import ProspectsIngest
import ProspectsService
import ProspectsTestSupport
import Testing

/// What a killed server left in the uploads' `.incoming/` folder is filed at the next start: a picture claimed but
/// not filed goes to the archive under its own name, one cut short to the quarantine with its reason, and a scratch
/// reason file is removed.
@Suite struct UploadRecoveryTests {
    @Test func everyLeftoverIsFiledAndScratchFilesRemoved() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let uploads = try UploadFolder(path: folder.file("uploads"))
        let code = PNGFixtures.contactCode("Left Over\nleft@example.org")
        try Data(code).write(to: URL(fileURLWithPath: uploads.incoming + "/0123456789abcdef.IMG_0007.png"))
        try Data(code.prefix(code.count / 2)).write(to: URL(fileURLWithPath: uploads.incoming + "/upload-Ab12Cd"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: uploads.incoming + "/fedcba9876543210.reason.tmp"))
        let service = ProspectsService(location: .sqlite(path: folder.file("prospects.sqlite")))

        #expect(try service.recoverUploads(uploads) == 2)
        let names = { (path: String) in Set(try FileManager.default.contentsOfDirectory(atPath: path)) }
        #expect(try names(uploads.incoming).isEmpty)
        #expect(try names(uploads.archive) == ["IMG_0007.png"])
        #expect(
            try names(uploads.rejected) == ["interrupted-upload-Ab12Cd", "interrupted-upload-Ab12Cd.reason.json"])
        #expect(try service.store().count() == 1)
        #expect(try service.recoverUploads(uploads) == 0, "nothing left the second time")
    }
}
