import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest
import ProspectsTestSupport
import Testing

@testable import ProspectsService

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
        // Received whole by the HTTP server, which put the client's file name after its own.
        let other = PNGFixtures.contactCode("Named Later\nnamed@example.org")
        try Data(other).write(to: URL(fileURLWithPath: uploads.incoming + "/upload-Qw34Er.IMG_0009.png"))
        let service = ProspectsService(location: .sqlite(path: folder.file("prospects.sqlite")))

        #expect(try service.recoverUploads(uploads) == 3)
        let names = { (path: String) in
            Set(try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") })
        }
        #expect(try names(uploads.incoming).isEmpty)
        #expect(try names(uploads.archive) == ["IMG_0007.png", "IMG_0009.png"], "the client's names kept")
        #expect(
            try names(uploads.rejected) == ["interrupted-upload-Ab12Cd", "interrupted-upload-Ab12Cd.reason.json"])
        #expect(try service.store().count() == 2)
        #expect(try service.recoverUploads(uploads) == 0, "nothing left the second time")
    }

    /// Two servers sharing one uploads folder: the second one starting takes up nothing of the first's uploads in
    /// progress, and takes up those of one that died.
    @Test func aServerStartingTakesOnlyTheUploadsOfServersThatDied() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let service = ProspectsService(location: .sqlite(path: folder.file("prospects.sqlite")))
        let code = PNGFixtures.contactCode("Left Over\nleft@example.org")
        let first = try UploadFolder(path: folder.file("uploads"))
        let inProgress = first.incoming + "/upload-Xy12Zw"
        try Data(code.prefix(100)).write(to: URL(fileURLWithPath: inProgress))
        var second: UploadFolder? = try UploadFolder(path: folder.file("uploads"))
        #expect(second?.incoming != first.incoming)
        #expect(try service.recoverUploads(second!) == 0, "the first server is alive: its upload is its own")
        #expect(FileManager.default.fileExists(atPath: inProgress))
        // The second server dies with an upload half received (its lock goes with it, as with kill -9).
        let abandoned = second!.incoming + "/upload-Ab12Cd"
        try Data(code).write(to: URL(fileURLWithPath: abandoned))
        let abandonedFolder = second!.incoming
        second = nil
        #expect(FileManager.default.fileExists(atPath: abandoned), "a folder with an upload in it stays")
        let third = try UploadFolder(path: folder.file("uploads"))
        #expect(try service.recoverUploads(third) == 1)
        #expect(!FileManager.default.fileExists(atPath: abandonedFolder), "the dead server's folder is gone")
        #expect(FileManager.default.fileExists(atPath: inProgress), "the live one's upload untouched")
        #expect(try service.store().count() == 1)
    }
}
