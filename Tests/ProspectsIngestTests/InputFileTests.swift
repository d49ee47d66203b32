import Foundation
import Glibc
import ProspectsCore
import ProspectsIngest
import Testing

/// Hostile entries in an input folder: each gets a typed error at once, and nothing is followed out of the folder.
@Suite final class InputFileTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("prospects-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @Test func readsARegularFileWhole() throws {
        let bytes = (0..<200_000).map { UInt8($0 % 251) }
        try Data(bytes).write(to: URL(fileURLWithPath: path("big.png")))
        #expect(try InputFile.read(path("big.png"), followSymlinks: false) == bytes)
        try Data().write(to: URL(fileURLWithPath: path("empty.png")))
        #expect(try InputFile.read(path("empty.png"), followSymlinks: false) == [])
    }

    @Test func oneBufferServesFilesOfEverySizeAndIsEmptiedByAnError() throws {
        let big = (0..<300_000).map { UInt8($0 % 253) }
        let small = Array("small".utf8)
        try Data(big).write(to: URL(fileURLWithPath: path("big.png")))
        try Data(small).write(to: URL(fileURLWithPath: path("small.png")))
        var buffer: [UInt8] = []
        try InputFile.read(path("big.png"), followSymlinks: false, into: &buffer)
        #expect(buffer == big)
        let capacity = buffer.capacity
        try InputFile.read(path("small.png"), followSymlinks: false, into: &buffer)
        #expect(buffer == small)
        #expect(buffer.capacity == capacity)  // shrinking keeps the storage for the next large file
        try InputFile.read(path("big.png"), followSymlinks: false, into: &buffer)
        #expect(buffer == big && buffer.capacity == capacity)
        #expect(throws: ScanError.self) {
            try InputFile.read(path("missing.png"), followSymlinks: false, into: &buffer)
        }
        #expect(buffer.isEmpty)
    }

    @Test func aFIFONamedLikeAnImageIsRefusedWithoutBlocking() throws {
        #expect(mkfifo(path("x.png"), 0o600) == 0)
        let started = Date()
        #expect(throws: ScanError.notARegularFile(kind: "a FIFO")) {
            try InputFile.read(path("x.png"), followSymlinks: false)
        }
        #expect(Date().timeIntervalSince(started) < 5, "a blocking open would never return")
    }

    @Test func aDirectoryNamedLikeAnImageIsRefused() throws {
        try FileManager.default.createDirectory(atPath: path("x.png"), withIntermediateDirectories: false)
        #expect(throws: ScanError.notARegularFile(kind: "a directory")) {
            try InputFile.read(path("x.png"), followSymlinks: false)
        }
    }

    @Test func aSymlinkIsFollowedOnlyWhenAsked() throws {
        try Data("secret".utf8).write(to: URL(fileURLWithPath: path("target.txt")))
        #expect(symlink(path("target.txt"), path("link.png")) == 0)
        #expect(throws: ScanError.notARegularFile(kind: "a symbolic link, not followed")) {
            try InputFile.read(path("link.png"), followSymlinks: false)
        }
        #expect(try InputFile.read(path("link.png"), followSymlinks: true) == Array("secret".utf8))
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: ScanError.unreadableFile(reason: "No such file or directory")) {
            try InputFile.read(path("nope.png"), followSymlinks: false)
        }
    }

    @Test func theWalkTakesPicturesRecursivelyInOrderFollowsNoLinkAndNamesWhatItSkips() throws {
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        for name in ["b.png", "a.PNG", "notes.txt", ".hidden.png", "sub/c.png", "d.JPG", "e.heic", "f.webp", "g.gif"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        // Told by content whatever the name: a JPEG without extension is taken, text named .jpg too (it is
        // refused with a reason when read), text without a picture's name is skipped.
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: folder.appendingPathComponent("photo"))
        try Data("Paul\npaul@example.com\n".utf8).write(to: folder.appendingPathComponent("sub/readme"))
        #expect(symlink("/etc", path("etc-link")) == 0)
        #expect(symlink(path("b.png"), path("link.png")) == 0)
        let entries = InputWalker.entries(for: [folder.path, path("b.png")])
        #expect(
            entries == [
                .file(path: path("a.PNG"), followSymlinks: false),
                .file(path: path("b.png"), followSymlinks: false),
                .file(path: path("d.JPG"), followSymlinks: false),
                .file(path: path("e.heic"), followSymlinks: false),
                .skipped(path: path("etc-link"), kind: "a symbolic link"),
                .file(path: path("f.webp"), followSymlinks: false),
                .file(path: path("g.gif"), followSymlinks: false),
                .file(path: path("link.png"), followSymlinks: false),
                .skipped(path: path("notes.txt"), kind: "an empty file"),
                .file(path: path("photo"), followSymlinks: false),
                .file(path: path("sub/c.png"), followSymlinks: false),
                .skipped(path: path("sub/readme"), kind: "a text file"),
                .file(path: path("b.png"), followSymlinks: true),
            ])
    }

    @Test func skippedFilesAreCountedAndTheFirstFewNamed() {
        var skipped = SkippedFiles()
        #expect(skipped.summary == nil)
        skipped.add(path: "notes.txt", kind: "a text file")
        #expect(skipped.summary == "skipped 1 file that is not a picture: notes.txt (a text file)")
        for index in 1...7 { skipped.add(path: "f\(index).pdf", kind: "a PDF document") }
        #expect(
            skipped.summary
                == "skipped 8 files that are not pictures: notes.txt (a text file), f1.pdf (a PDF document), "
                + "f2.pdf (a PDF document), f3.pdf (a PDF document), f4.pdf (a PDF document), and 3 more")
    }

    /// A Latin-1 name cannot be spelt as a String, so no path could open the file: reported, not skipped in silence.
    @Test func aNameThatIsNotUTF8IsReportedNotSkipped() throws {
        let bytes = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".png".utf8) + [0]
        let fd = bytes.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer {
            open($0.baseAddress!, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        }
        #expect(fd >= 0)
        close(fd)
        try Data().write(to: folder.appendingPathComponent("ok.png"))
        let entries = InputWalker.entries(for: [folder.path])
        #expect(entries.count == 2)
        #expect(entries.last == .file(path: path("ok.png"), followSymlinks: false))
        guard case .missing(let shown, .unreadableFile(let reason))? = entries.first else {
            Issue.record("the Latin-1 name was not reported: \(entries)")
            return
        }
        #expect(shown == path("caf\u{FFFD}.png"))
        #expect(reason.contains("not valid UTF-8"))
    }

    @Test func anUnreadableFileIsReportedNotFatal() throws {
        // A read that fails, for root too: /proc/self/mem is a regular file whose first page is never mapped.
        #expect(throws: ScanError.unreadableFile(reason: "Input/output error")) {
            try InputFile.read("/proc/self/mem", followSymlinks: false)
        }
        // An open that fails: mode 000 refuses everyone but root. HostileInputTests checks it as nobody under root.
        try Data("x".utf8).write(to: URL(fileURLWithPath: path("locked.png")))
        chmod(path("locked.png"), 0)
        if geteuid() != 0 {
            #expect(throws: ScanError.unreadableFile(reason: "Permission denied")) {
                try InputFile.read(path("locked.png"), followSymlinks: false)
            }
        }
    }

    @Test func contentHashIsSHA256() {
        #expect(ContentHash.sha256([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            ContentHash.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
