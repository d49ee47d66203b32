import Foundation
import Glibc
import ProspectsTestSupport
import Testing

/// `prospects watch` as a user runs it: the built binary on a real inbox, real files written the ways scanners and
/// phones write them, a real SQLite store, real signals. Serialized so that the timing checks mean something.
@Suite(.serialized) struct WatchTests {
    static func contact(_ number: Int, moduleSize: Int = 3) -> [UInt8] {
        PNGFixtures.contactCode("Person \(number)\nperson\(number)@example.com", moduleSize: moduleSize)
    }

    static func email(_ number: Int) -> String { "person\(number)@example.com" }

    /// `setpriv` to run the watcher as `nobody`, and that user: the tests of files another user owns need root to
    /// drop to it. Without root they fail, saying why, rather than pass without checking anything.
    static func asNobody() throws -> (launcher: [String], nobody: passwd) {
        let (launcher, why) = HostileInputTests.unprivileged()
        let dropping = try #require(launcher.flatMap { $0.isEmpty ? nil : $0 }, "needs root to drop to nobody: \(why)")
        let nobody = try #require(getpwnam("nobody")?.pointee, "no user nobody")
        return (dropping, nobody)
    }

    static func byFile(_ records: [[String: Any]]) -> [String: [String: Any]] {
        Dictionary(records.map { (URL(fileURLWithPath: $0["file"] as? String ?? "").lastPathComponent, $0) }) { a, _ in
            a
        }
    }

    @Test func helpAndUsage() throws {
        let help = try ProspectsProcess.run(["help", "watch"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: prospects watch"))
        #expect(!help.output.contains("decoder-worker"))
        #expect(try ProspectsProcess.run(["watch"]).status == 64)
        #expect(try ProspectsProcess.run(["watch", "--poll", "0", "/tmp"]).status == 64)
        let box = try WatchSandbox()
        let missing = try ProspectsProcess.run(["watch", "--store", box.store, box.inbox + "/nope"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("does not exist"))
    }

    @Test func anArchiveOnAnotherFileSystemIsAConfigurationError() throws {
        let box = try WatchSandbox()
        var shm = stat()
        var tmp = stat()
        try #require(
            stat("/dev/shm", &shm) == 0 && stat(box.inbox, &tmp) == 0 && shm.st_dev != tmp.st_dev,
            "needs /dev/shm on another file system than the temporary folder")
        let elsewhere = "/dev/shm/prospects-watch-\(getpid())-archive"
        defer { rmdir(elsewhere) }
        let result = try ProspectsProcess.run(["watch", "--store", box.store, "--archive", elsewhere, box.inbox])
        #expect(result.status == 78)
        #expect(result.stderr.contains("another file system"))
        #expect(!FileManager.default.fileExists(atPath: elsewhere), "a refused start leaves no folder behind")
        #expect(!FileManager.default.fileExists(atPath: box.store), "nor a store")
    }

    /// A picture of two badges, one of them no contact: the good one is loaded and the picture archived, and the
    /// bad one is named on stderr and in the JSON line. `decode` and `ingest` exit 65 on it, as on any rejected
    /// code. Before, watch said nothing of it, and the other two exited 0.
    @Test func aPictureWithOneBadCodeAmongGoodOnesNamesIt() throws {
        let box = try WatchSandbox()
        let png = PNGFixtures.twoCodes("Ann Lee\nann@example.com", "Jane Doe\njane(at)example.com")
        try Data(png).write(to: URL(fileURLWithPath: box.folder.file("pair.png")))
        let decoded = try ProspectsProcess.run(["decode", box.folder.file("pair.png")])
        #expect(decoded.status == 65 && decoded.output.contains("Ann Lee"), "\(decoded.stderr)")
        let ingested = try ProspectsProcess.run([
            "ingest", "--store", box.folder.file("i.sqlite"), box.folder.file("pair.png"),
        ])
        #expect(ingested.status == 65)
        #expect(ingested.output == "1 file: 1 inserted, 0 duplicates, 0 rejected (and 1 code that was not a contact)\n")

        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        try box.drop("pair.png", png)
        #expect(watch.waitForLines(1), "\(watch.stderr)")
        #expect(watch.waitForStderr("pair.png (code 2 of 2): rejected: "), "\(watch.stderr)")
        let record = try #require(watch.records.first)
        #expect(record["outcome"] as? String == "inserted")
        let rejected = try #require(record["rejectedCodes"] as? [[String: Any]])
        #expect(rejected.count == 1 && (rejected.first?["message"] as? String)?.contains("jane(at)example.com") == true)
        #expect(watch.terminate().status == 0)
        #expect(try box.prospects() == ["ann@example.com": [1]])
    }

    /// A file a writer still has open when the watcher starts (a slow upload across a restart) is left alone,
    /// however long the writer pauses, and taken when it is closed. It was taken once unchanged for half a second,
    /// and quarantined half-written, while the writer went on writing into the quarantined copy.
    @Test func aFileStillOpenForWritingAtStartIsTakenWhenClosed() throws {
        let box = try WatchSandbox()
        let png = Self.contact(7)
        let path = box.inbox + "/upload.png"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try writer.write(contentsOf: Data(png[..<(png.count / 2)]))
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        // Found by the first scan, settled after half a second, then seen held by its writer: left alone.
        usleep(1_000_000)
        #expect(watch.records.isEmpty, "\(watch.stderr)")
        #expect(FileManager.default.fileExists(atPath: path), "still in the inbox while its writer has it open")
        try writer.write(contentsOf: Data(png[(png.count / 2)...]))
        try writer.close()
        #expect(watch.waitForLines(1), "\(watch.stderr)")
        #expect(watch.records.first?["outcome"] as? String == "inserted", "\(watch.stderr)")
        #expect(watch.terminate().status == 0)
        #expect(try box.prospects() == [Self.email(7): [1]])
    }

    /// The archive and quarantine folders removed while the watcher runs (someone tidying up) are made again when a
    /// file is bound for them; the watcher stopped with a system-call error before.
    @Test func anArchiveOrQuarantineRemovedWhileWatchingIsMadeAgain() throws {
        let box = try WatchSandbox()
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        #expect(rmdir(box.archive) == 0 && rmdir(box.rejected) == 0)
        try box.drop("good.png", Self.contact(1))
        try box.drop("bad.png", Array("not a picture".utf8))
        #expect(watch.waitForLines(2), "\(watch.stderr)")
        // stderr is read apart from stdout, and may come a moment later.
        #expect(watch.waitForStderr("\(box.archive) was gone; made it again"), "\(watch.stderr)")
        #expect(watch.waitForStderr("\(box.rejected) was gone; made it again"), "\(watch.stderr)")
        #expect(Set(watch.records.compactMap { $0["outcome"] as? String }) == ["inserted", "rejected"])
        #expect(box.images(in: box.archive) == ["good.png"])
        #expect(FileManager.default.fileExists(atPath: box.rejected + "/bad.png.reason.json"))
        #expect(watch.terminate().status == 0)
    }

    /// A store that stays busy (here another process holds the SQLite file locked for 3 s; a PostgreSQL restart
    /// is the same to the watcher) is waited out: the file stays claimed, the commit is tried again, and nothing
    /// is lost or counted twice. The watcher used to exit 75 (69 for an unreachable server).
    @Test func aStoreThatStaysBusyIsWaitedOut() throws {
        let box = try WatchSandbox()
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        let lock = try SQLiteLockHolder(store: box.store, seconds: 3)
        defer { lock.release() }
        try box.drop("a.png", Self.contact(1))
        #expect(watch.waitForStderr("trying again in", timeout: 20), "\(watch.stderr)")
        #expect(watch.waitForLines(1, timeout: 40), "\(watch.stderr)")
        // stderr is read apart from stdout, and may come a moment later.
        #expect(watch.waitForStderr("the store is back"), "\(watch.stderr)")
        #expect(watch.records.first?["outcome"] as? String == "inserted")
        #expect(watch.terminate().status == 0)
        #expect(try box.prospects() == [Self.email(1): [1]])
        #expect(box.images(in: box.archive) == ["a.png"] && box.claimed.isEmpty)
    }

    /// A stop signal while the store is busy is obeyed at once (the watcher waits for a lock 1 s at a time, not a
    /// command's 10 s): the decided file stays claimed, and the next start takes it up and counts it once.
    @Test func aStopWhileTheStoreIsBusyIsPromptAndLosesNothing() throws {
        let box = try WatchSandbox()
        var watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        let lock = try SQLiteLockHolder(store: box.store, seconds: 60)
        defer { lock.release() }
        try box.drop("a.png", Self.contact(1))
        #expect(watch.waitForStderr("trying again in", timeout: 10), "\(watch.stderr)")
        let (status, seconds) = watch.terminate()
        // Waiting out the store's busy timeout would take 10 s.
        #expect(status == 0 && seconds < 8, "exit \(status) after \(seconds) s")
        #expect(watch.lines.isEmpty)
        #expect(box.claimed.count == 1 && box.waiting.isEmpty)
        lock.release()
        watch = try box.start()
        #expect(watch.waitForLines(1))
        #expect(watch.terminate().status == 0)
        #expect(try box.prospects() == [Self.email(1): [1]])
        #expect(box.images(in: box.archive) == ["a.png"] && box.claimed.isEmpty)
    }

    /// The inbox deleted (while the watcher holds a descriptor inside it, which keeps inotify from saying so),
    /// replaced by a new folder, or gone from under a poll: the watcher stops with 66 instead of watching nothing.
    @Test(arguments: [["--poll", "0.2"], []], [false, true])
    func anInboxDeletedOrReplacedStopsTheWatcher(mode: [String], replaced: Bool) throws {
        let box = try WatchSandbox()
        try box.drop("a.png", Self.contact(1))
        let watch = try box.start(mode)
        #expect(watch.waitForLines(1))
        try FileManager.default.removeItem(atPath: box.inbox)
        if replaced { try FileManager.default.createDirectory(atPath: box.inbox, withIntermediateDirectories: false) }
        #expect(watch.waitForExit(timeout: 8) == 66)
        #expect(watch.waitForStderr("the inbox \(box.inbox) was deleted or moved away"), "\(watch.stderr)")
    }

    /// An inbox named relative to the working folder: when its folder is moved away, the working folder moves with
    /// it, and the relative name still finds it. The watcher must look for it where it was, from `/`.
    @Test(arguments: [["--poll", "0.2"], []])
    func aRelativeInboxMovedAwayStopsTheWatcher(mode: [String]) throws {
        let box = try WatchSandbox()
        let parent = box.folder.file("parent")
        try FileManager.default.createDirectory(atPath: parent + "/inbox", withIntermediateDirectories: true)
        try Data(Self.contact(1)).write(to: URL(fileURLWithPath: parent + "/inbox/a.png"))
        // sh enters `parent`, then runs the binary (its $0) with the watch arguments, the inbox last and relative.
        let watch = try WatchProcess(
            inbox: "inbox", store: box.store, arguments: mode,
            launcher: ["/bin/sh", "-c", "cd '\(parent)' && exec \"$0\" \"$@\""])
        #expect(watch.waitForLines(1), "\(watch.stderr)")
        #expect(rename(parent, box.folder.file("moved")) == 0)
        #expect(watch.waitForExit(timeout: 8) == 66)
        #expect(watch.waitForStderr("the inbox inbox was deleted or moved away"), "\(watch.stderr)")
    }

    @Test func catchUpThenLiveFilesAreArchivedOrQuarantinedWithAReason() throws {
        let box = try WatchSandbox()
        try box.drop("a.png", Self.contact(1))
        try box.drop("b.png", PNGFixtures.contactCode("https://example.com/not-a-contact"))
        try box.drop("c.png", Array("not a png at all".utf8))
        let watch = try box.start()
        #expect(watch.waitForLines(3))
        try box.drop("d.png", Self.contact(2))
        #expect(watch.waitForLines(4))
        let (status, _) = watch.terminate()
        #expect(status == 0)

        let records = Self.byFile(watch.records)
        #expect(records["a.png"]?["outcome"] as? String == "inserted")
        #expect((records["a.png"]?["prospects"] as? [Any])?.count == 1)
        #expect(records["a.png"]?["error"] is NSNull)
        #expect(records["b.png"]?["outcome"] as? String == "rejected")
        #expect(records["c.png"]?["outcome"] as? String == "rejected")
        #expect((records["c.png"]?["error"] as? [String: Any])?["kind"] as? String == "unreadableImage")
        #expect(records["d.png"]?["outcome"] as? String == "inserted")

        #expect(box.images(in: box.archive) == ["a.png", "d.png"])
        #expect(box.images(in: box.rejected) == ["b.png", "c.png"])
        let reason = try box.reason("c.png")
        #expect(reason["kind"] as? String == "unreadableImage")
        #expect((reason["message"] as? String)?.isEmpty == false)
        #expect(reason["time"] is String)
        #expect(box.waiting.isEmpty && box.claimed.isEmpty)
        #expect(try box.prospects() == [Self.email(1): [1], Self.email(2): [1]])
        #expect(watch.waitForStderr("a.png: inserted"))
        #expect(watch.waitForStderr("c.png: rejected"))
    }

    /// A writer that pauses longer than the settle time in the middle of a file, while something else makes the
    /// watcher rescan the inbox (here an empty file touched in): the file is taken once, when its writer closes it,
    /// never half-written by the rescan (which would quarantine a valid contact and let the rest of the bytes land
    /// in the quarantine).
    @Test func aFileBeingWrittenIsNotTakenByARescanWhileItsWriterPauses() throws {
        let box = try WatchSandbox()
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        let bytes = Self.contact(1)
        try #require(bytes.count > 400)
        let fd = open(box.inbox + "/t1.png", O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        try #require(fd >= 0)
        _ = bytes[..<300].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        // An empty file is taken only once it has stayed empty for the settle time, by a rescan 0.5 s later: by
        // the time it is reported, that rescan has listed t1.png half-written.
        _ = FileManager.default.createFile(atPath: box.inbox + "/empty.png", contents: nil)
        #expect(watch.waitForLines(1))
        #expect(FileManager.default.fileExists(atPath: box.inbox + "/t1.png"), "not taken while its writer pauses")
        _ = bytes[300...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(watch.waitForLines(2))
        #expect(watch.terminate().status == 0)

        let records = Self.byFile(watch.records)
        #expect(watch.lines.count == 2)
        #expect(records["t1.png"]?["outcome"] as? String == "inserted")
        #expect(records["empty.png"]?["outcome"] as? String == "rejected")
        #expect(box.images(in: box.archive) == ["t1.png"])
        #expect(box.images(in: box.rejected) == ["empty.png"])
        #expect(try box.prospects() == [Self.email(1): [1]])
        #expect(box.waiting.isEmpty && box.claimed.isEmpty)
    }

    /// A writer that writes an unnamed file (`O_TMPFILE`) and links it in: inotify shows the name created with one
    /// link, and the close under the kernel's name `#<inode>`; the file is taken at that close.
    @Test func aFileWrittenUnnamedAndLinkedInIsTakenWhenClosed() throws {
        let box = try WatchSandbox()
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        let fd = open(box.inbox, __O_TMPFILE | O_DIRECTORY | O_WRONLY, 0o644)
        try #require(fd >= 0, "needs O_TMPFILE in the temporary folder's file system")
        let bytes = Self.contact(1)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        #expect(linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, box.inbox + "/unnamed.png", AT_SYMLINK_FOLLOW) == 0)
        close(fd)
        #expect(watch.waitForLines(1, timeout: 5))
        #expect(watch.terminate().status == 0)
        #expect(watch.records.first?["outcome"] as? String == "inserted")
        #expect(box.images(in: box.archive) == ["unnamed.png"])
        #expect(try box.prospects() == [Self.email(1): [1]])
    }

    @Test func onlyCompleteFilesAreTakenAndTemporaryNamesAreIgnored() throws {
        let box = try WatchSandbox()
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))

        // A writer that writes in chunks, pausing between them: one outcome, on close. While it pauses, the Maildir
        // hand-off (written as .part, renamed when complete) goes through.
        let chunked = Self.contact(1)
        let fd = open(box.inbox + "/chunked.png", O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        let half = chunked.count / 2
        _ = chunked[..<half].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        try box.dropByRename("renamed.png", Self.contact(2))
        #expect(watch.waitForLines(1))
        #expect(FileManager.default.fileExists(atPath: box.inbox + "/chunked.png"), "not taken half-written")
        _ = chunked[half...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        // A writer that creates the file empty, closes it, and only then writes it: not taken while empty.
        _ = FileManager.default.createFile(atPath: box.inbox + "/touched.png", contents: nil)
        try box.drop("touched.png", Self.contact(5))
        // Never input: hidden, or named as writers name a file they have not finished.
        for name in [".hidden.png", "e.png.tmp", "f.png~", "g.png.part", "h.jpg.crdownload", ".syncthing.i.png.tmp"] {
            try box.drop(name, Self.contact(3))
        }
        #expect(watch.waitForLines(3))
        // The same name again, new content: archived beside the first, never over it.
        try box.drop("chunked.png", Self.contact(4))
        #expect(watch.waitForLines(4))
        #expect(watch.terminate().status == 0)

        #expect(watch.lines.count == 4)
        #expect(watch.records.allSatisfy { $0["outcome"] as? String == "inserted" })
        #expect(box.images(in: box.archive) == ["chunked-1.png", "chunked.png", "renamed.png", "touched.png"])
        #expect(
            box.names(in: box.inbox).filter { $0 != "archive" && $0 != "rejected" && $0 != ".processing" }
                == [".hidden.png", ".syncthing.i.png.tmp", "e.png.tmp", "f.png~", "g.png.part", "h.jpg.crdownload"])
        #expect(
            try box.prospects() == [Self.email(1): [1], Self.email(2): [1], Self.email(4): [1], Self.email(5): [1]])
    }

    @Test func hostileEntriesAreQuarantinedNeverFollowedAndNeverBlock() throws {
        let box = try WatchSandbox()
        let outside = box.folder.file("outside.png")
        try Data(Self.contact(9)).write(to: URL(fileURLWithPath: outside))
        #expect(symlink(outside, box.inbox + "/link.png") == 0)
        #expect(mkfifo(box.inbox + "/fifo.png", 0o600) == 0)
        // A folder is never taken, whatever its name: it is a subfolder, walked.
        #expect(mkdir(box.inbox + "/folder.png", 0o755) == 0)
        try box.drop("locked.png", Array("garbage".utf8))
        #expect(chmod(box.inbox + "/locked.png", 0) == 0)
        let big = open(box.inbox + "/big.png", O_CREAT | O_WRONLY, 0o644)
        #expect(ftruncate(big, 300 << 20) == 0)  // sparse: over the size limit without using the disk
        close(big)

        let watch = try box.start()
        #expect(watch.waitForLines(4))
        // The same kinds of entry appearing while it runs (announced by IN_CREATE, not by a close).
        #expect(symlink(outside, box.inbox + "/live-link.png") == 0)
        #expect(mkfifo(box.inbox + "/live-fifo.png", 0o600) == 0)
        try box.drop("good.png", Self.contact(1))
        #expect(watch.waitForLines(7))
        #expect(watch.terminate().status == 0)

        #expect(watch.lines.count == 7, "\(watch.stderr)")
        var folder = stat()
        #expect(lstat(box.inbox + "/folder.png", &folder) == 0 && folder.st_mode & S_IFMT == S_IFDIR)
        let records = Self.byFile(watch.records)
        for name in ["link.png", "fifo.png", "live-link.png", "live-fifo.png"] {
            #expect(records[name]?["outcome"] as? String == "rejected", "\(name)")
            #expect(try box.reason(name)["kind"] as? String == "notARegularFile", "\(name)")
        }
        #expect(records["locked.png"]?["outcome"] as? String == "rejected")
        #expect((records["big.png"]?["error"] as? [String: Any])?["kind"] as? String == "unreadableFile")
        #expect(records["good.png"]?["outcome"] as? String == "inserted")
        // The link's target was never read or moved, and its contact is not in the store.
        #expect(try Data(contentsOf: URL(fileURLWithPath: outside)) == Data(Self.contact(9)))
        #expect(try box.prospects() == [Self.email(1): [1]])
        var info = stat()
        #expect(lstat(box.rejected + "/link.png", &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(box.waiting.isEmpty && box.claimed.isEmpty)
    }

    @Test func twoWatchersOnOneInboxTakeEveryFileExactlyOnce() throws {
        let box = try WatchSandbox()
        let first = try box.start()
        let second = try box.start()
        #expect(first.waitForStderr("watching") && second.waitForStderr("watching"))
        let count = 40
        for number in 0..<count {
            if number % 2 == 0 {
                try box.drop("c\(number).png", Self.contact(number))
            } else {
                try box.dropByRename("c\(number).png", Self.contact(number))
            }
        }
        #expect(box.wait(timeout: 20) { box.images(in: box.archive).count == count })
        #expect(first.terminate().status == 0)
        #expect(second.terminate().status == 0)

        let files = (first.records + second.records).compactMap { $0["file"] as? String }
        #expect(files.count == count)
        #expect(Set(files).count == count)
        let prospects = try box.prospects()
        #expect(prospects.count == count)
        #expect(prospects.values.allSatisfy { $0 == [1] })
        #expect(box.waiting.isEmpty && box.claimed.isEmpty)
    }

    /// Subfolders are watched too: one there at start, one made while the watcher runs and one inside that, each
    /// file taken (and archived under its own name); a hidden folder is not entered. With `--no-recursive`, only
    /// the inbox itself is watched.
    /// A phone's pictures as upload tools write them: JPEG, HEIC and WebP, named anything, in the inbox and in a
    /// dated subfolder made after the watcher started, each read by content.
    @Test func jpegHEICAndWebPAreTakenInTheInboxAndInASubfolderMadeAfterTheStart() throws {
        let box = try WatchSandbox()
        var pictures: [(name: String, bytes: [UInt8])] = []
        let conversions: [PictureFixtures.Conversion] = [.jpegBaseline, .heic, .webpLossy]
        for (index, conversion) in (conversions + conversions).enumerated() {
            let name = (index < 3 ? "" : "2026-12-02/") + "IMG_\(index).\(conversion.fileExtension.uppercased())"
            pictures.append((name, try PictureFixtures.convert(Self.contact(index, moduleSize: 5), conversion)))
        }
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        try FileManager.default.createDirectory(atPath: box.inbox + "/2026-12-02", withIntermediateDirectories: true)
        for picture in pictures { try box.drop(picture.name, picture.bytes) }
        #expect(watch.waitForLines(6), "\(watch.stderr)")
        #expect(watch.terminate().status == 0)

        #expect(watch.records.allSatisfy { $0["outcome"] as? String == "inserted" }, "\(watch.stderr)")
        let dropped = Set(watch.records.compactMap { $0["file"] as? String })
        #expect(dropped == Set(pictures.map { box.inbox + "/" + $0.name }))
        #expect(box.images(in: box.archive) == pictures.map { String($0.name.split(separator: "/").last!) }.sorted())
        #expect(try box.prospects() == Dictionary(uniqueKeysWithValues: (0..<6).map { (Self.email($0), [1]) }))
        #expect(box.waiting.isEmpty && box.claimed.isEmpty && box.images(in: box.rejected).isEmpty)
    }

    /// A writer that appends a picture in three opens, closing after each, pausing less than the settle time: one
    /// prospect, nothing quarantined. Each close used to be taken as a whole file, leaving fragments and no contact.
    @Test func aPNGWrittenInThreeOpensBecomesOneProspectAndNothingIsQuarantined() throws {
        let box = try WatchSandbox()
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        let png = Self.contact(1)
        let third = png.count / 3
        for (index, piece) in [png[..<third], png[third..<(2 * third)], png[(2 * third)...]].enumerated() {
            // A pause under the settle time (0.5 s) between the pieces, as a slow uploader makes.
            if index > 0 { usleep(200_000) }
            let fd = open(box.inbox + "/pieces.png", O_CREAT | O_WRONLY | O_APPEND, 0o644)
            try #require(fd >= 0)
            #expect(piece.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == piece.count)
            close(fd)
        }
        #expect(watch.waitForLines(1), "\(watch.stderr)")
        #expect(watch.terminate().status == 0)
        // One record: a fragment taken at the first or second close would have been reported (and quarantined) first.
        #expect(watch.lines.count == 1, "\(watch.stderr)")
        #expect(watch.records.first?["outcome"] as? String == "inserted", "\(watch.stderr)")
        #expect(box.images(in: box.archive) == ["pieces.png"])
        #expect(box.names(in: box.rejected).isEmpty)
        #expect(try box.prospects() == [Self.email(1): [1]])
    }

    /// A file that is no picture is logged with what it is, in `decode`'s words, and quarantined with its reason;
    /// never left in the inbox in silence, never deleted. A picture cut short and left so is judged once quiet.
    @Test func aFileThatIsNoPictureIsLoggedAndQuarantinedWithAReason() throws {
        let box = try WatchSandbox()
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        try box.drop("notes.txt", Array("call Paul back\n".utf8))
        try box.drop("scan.gif", try PictureFixtures.convert(Self.contact(1), .gif))
        let png = Self.contact(2)
        try box.drop("cut.png", Array(png.prefix(png.count / 2)))
        #expect(watch.waitForLines(3), "\(watch.stderr)")
        #expect(watch.terminate().status == 0)

        let supported = "; Prospects reads PNG, JPEG, HEIC, AVIF and WebP"
        for (name, what) in [("notes.txt", "a text file"), ("scan.gif", "a GIF image")] {
            #expect(watch.waitForStderr("\(name): rejected: \(what)\(supported)"), "\(watch.stderr)")
            let reason = try box.reason(name)
            #expect(reason["kind"] as? String == "unreadableImage")
            #expect(reason["message"] as? String == what + supported)
        }
        #expect(
            try box.reason("cut.png")["message"] as? String
                == "the PNG image is cut short (the file ends before the picture does)")
        #expect(box.images(in: box.rejected) == ["cut.png", "notes.txt", "scan.gif"])
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: box.rejected + "/notes.txt")) == Data("call Paul back\n".utf8))
        #expect(box.waiting.isEmpty && box.claimed.isEmpty)
    }

    @Test func filesInSubfoldersAreTakenUnlessNotRecursive() throws {
        let box = try WatchSandbox()
        let files = FileManager.default
        try files.createDirectory(atPath: box.inbox + "/old", withIntermediateDirectories: true)
        try files.createDirectory(atPath: box.inbox + "/.private", withIntermediateDirectories: true)
        try box.drop("old/a.png", Self.contact(1))
        try box.drop(".private/h.png", Self.contact(9))
        var watch = try box.start()
        #expect(watch.waitForLines(1), "\(watch.stderr)")
        try files.createDirectory(atPath: box.inbox + "/new/deeper", withIntermediateDirectories: true)
        try box.drop("new/b.png", Self.contact(2))
        try box.drop("new/deeper/c.png", Self.contact(3))
        try box.dropByRename("old/d.png", Self.contact(4))
        #expect(watch.waitForLines(4), "\(watch.stderr)")
        #expect(watch.terminate().status == 0)
        #expect(box.images(in: box.archive) == ["a.png", "b.png", "c.png", "d.png"])
        let dropped = Set(watch.records.compactMap { $0["file"] as? String })
        #expect(dropped.contains(box.inbox + "/new/deeper/c.png"), "\(dropped)")
        #expect(files.fileExists(atPath: box.inbox + "/.private/h.png"))
        #expect(box.claimed.isEmpty)

        watch = try box.start(["--no-recursive"])
        #expect(watch.waitForStderr("watching"))
        try box.drop("new/e.png", Self.contact(5))
        try box.drop("f.png", Self.contact(6))
        #expect(watch.waitForLines(1))
        #expect(watch.terminate().status == 0)
        #expect(watch.lines.count == 1)
        #expect(files.fileExists(atPath: box.inbox + "/new/e.png"))
        #expect(
            try box.prospects() == [
                Self.email(1): [1], Self.email(2): [1], Self.email(3): [1], Self.email(4): [1], Self.email(6): [1],
            ])
    }

    @Test func pollModeFindsFilesWithoutInotify() throws {
        let box = try WatchSandbox()
        let watch = try box.start(["--poll", "0.2"])
        #expect(watch.waitForStderr("scanning every"))
        try box.drop("a.png", Self.contact(1))
        #expect(watch.waitForLines(1, timeout: 5))
        #expect(watch.terminate().status == 0)
        #expect(box.images(in: box.archive) == ["a.png"])
    }

    @Test func sigtermFinishesTheFilesInHandAndExitsPromptly() throws {
        let box = try WatchSandbox()
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        for number in 0..<10 { try box.drop("c\(number).png", Self.contact(number)) }
        #expect(box.wait { !box.claimed.isEmpty || !box.images(in: box.archive).isEmpty })
        let (status, seconds) = watch.terminate()
        #expect(status == 0)
        #expect(seconds < 5, "stopped after \(seconds) s")
        // Every file is either done (moved, and in the store) or untouched in the inbox; none is left half-way.
        #expect(box.claimed.isEmpty)
        let archived = box.images(in: box.archive)
        #expect(archived.count + box.waiting.count == 10)
        #expect(try box.prospects().count == archived.count)
        #expect(watch.lines.count == archived.count)
    }

    /// With `--json`, stdout is the consumer's feed: once a line cannot be written there (a full disk, a reader
    /// that went away: EPIPE, SIGPIPE being ignored), the watcher says so, finishes the file in hand and exits 74
    /// instead of running on with nobody hearing of its files. The file is archived (or still claimed), never lost.
    @Test(arguments: ["/dev/full", "a pipe nobody reads"])
    func aStandardOutputThatCannotBeWrittenStopsTheWatcherWith74(_ output: String) throws {
        let box = try WatchSandbox()
        let stdout: FileHandle
        if output == "/dev/full" {
            stdout = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        } else {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            stdout = pipe.fileHandleForWriting
        }
        let watch = try box.start(stdout: stdout)
        try stdout.close()
        #expect(watch.waitForStderr("watching"))
        try box.drop("a.png", Self.contact(1))
        #expect(watch.waitForExit(timeout: 5) == 74)
        #expect(watch.waitForStderr("cannot write the --json lines to standard output"))
        #expect(watch.waitForStderr("a.png: inserted"))
        let archived = box.images(in: box.archive)
        #expect(archived == ["a.png"] || box.claimed.count == 1)
        #expect(archived.count + box.claimed.count + box.waiting.count == 1)
        #expect(try box.prospects() == [Self.email(1): [1]])
    }

    @Test func aClaimLeftByADeadWatcherIsTakenUpAndTheLedgerKeepsItFromCountingTwice() throws {
        let box = try WatchSandbox()
        let bytes = Self.contact(1)
        var watch = try box.start()
        try box.drop("a.png", bytes)
        #expect(watch.waitForLines(1))
        #expect(watch.terminate().status == 0)

        // The state a kill -9 between commit and move leaves: the committed bytes still in a dead watcher's claim
        // folder (no lock held: its process is gone).
        let dead = box.inbox + "/.processing/otherhost-4242-dead"
        try FileManager.default.createDirectory(atPath: dead, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: dead + "/7.a.png"))
        _ = FileManager.default.createFile(atPath: dead + "/.lock", contents: nil)

        watch = try box.start()
        #expect(watch.waitForLines(1))
        #expect(watch.terminate().status == 0)
        #expect(watch.records.first?["outcome"] as? String == "duplicate")
        #expect(box.images(in: box.archive) == ["a-1.png", "a.png"])
        #expect(try box.prospects() == [Self.email(1): [1]])
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(box.claimed.isEmpty)
    }

    /// The crash test: files keep arriving, before a start and while it runs, and `watch` is killed with SIGKILL at
    /// moments set by its own progress (a random number of files filed), six times; after a last, undisturbed run
    /// the end state must be exactly that of a run that was never interrupted.
    @Test func killNineAtRandomMomentsLosesNothingAndCountsNothingTwice() throws {
        let box = try WatchSandbox()
        struct Drop {
            var name: String
            var bytes: [UInt8]
            var email: String?
        }
        var drops: [Drop] = []
        for number in 0..<36 {
            drops.append(Drop(name: "p\(number).png", bytes: Self.contact(number), email: Self.email(number)))
        }
        for number in 0..<12 {  // a second, different picture of the same person: scanned twice
            drops.append(
                Drop(name: "q\(number).png", bytes: Self.contact(number, moduleSize: 4), email: Self.email(number)))
        }
        for number in 0..<6 {
            drops.append(
                Drop(name: "text\(number).png", bytes: PNGFixtures.contactCode("plain text \(number)"), email: nil))
            drops.append(Drop(name: "junk\(number).png", bytes: Array("junk \(number)".utf8), email: nil))
        }
        drops.shuffle()

        var dropped = 0
        func drop(_ batch: ArraySlice<Drop>) throws {
            for drop in batch {
                if dropped % 2 == 0 {
                    try box.drop(drop.name, drop.bytes)
                } else {
                    try box.dropByRename(drop.name, drop.bytes)
                }
                dropped += 1
            }
        }
        func filed() -> Int { box.images(in: box.archive).count + box.images(in: box.rejected).count }
        let roundSize = drops.count / 6
        for round in 0..<6 {
            let batch = drops[(round * roundSize)..<(round == 5 ? drops.count : (round + 1) * roundSize)]
            try drop(batch.prefix(batch.count / 2))
            let watch = try box.start()
            let target = filed() + Int.random(in: 1...4)
            try drop(batch.dropFirst(batch.count / 2))
            box.wait(timeout: 5) { filed() >= target }
            watch.signal(SIGKILL)
            _ = watch.waitForExit()
        }
        #expect(dropped == drops.count)

        let last = try box.start()
        #expect(
            box.wait(timeout: 20) {
                box.waiting.isEmpty && box.claimed.isEmpty
                    && box.images(in: box.archive).count + box.images(in: box.rejected).count == drops.count
            })
        #expect(last.terminate().status == 0)

        // Every dropped file is in the archive or the quarantine exactly once (by content: names may have suffixes).
        func contents(_ folder: String) throws -> [Data] {
            try box.images(in: folder).map { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)) }
        }
        let archived = try contents(box.archive)
        let rejected = try contents(box.rejected)
        #expect(archived.count + rejected.count == drops.count)
        #expect(Set(archived) == Set(drops.filter { $0.email != nil }.map { Data($0.bytes) }))
        #expect(Set(rejected) == Set(drops.filter { $0.email == nil }.map { Data($0.bytes) }))
        for name in box.images(in: box.rejected) {
            #expect(FileManager.default.fileExists(atPath: box.rejected + "/" + name + ".reason.json"), "\(name)")
        }
        #expect(box.names(in: box.rejected).count == 2 * rejected.count)
        // Every contact once, its scan count the number of distinct pictures of it.
        var expected: [String: [Int]] = [:]
        for drop in drops { if let email = drop.email { expected[email] = [(expected[email]?.first ?? 0) + 1] } }
        #expect(try box.prospects() == expected)
        #expect(box.claimed.isEmpty)
    }

    /// Names of 244 to 255 bytes: a reason file (`NAME.reason.json`), a claim (`<token>.NAME`) or a `-1` suffix would
    /// not fit in NAME_MAX, so the watcher shortens the stem (keeping `.png`) wherever a name of its own needs room;
    /// a name that fits as it is, is kept. Before, the first such name stopped the daemon (exit 74) for good.
    @Test func namesUpTo255BytesAreTakenAndFiledUnderNamesThatFit() throws {
        let box = try WatchSandbox()
        let junk = Array("not a png".utf8)
        let rejectedLong = String(repeating: "a", count: 240) + ".png"  // 244 bytes: its reason file would be 256
        let archivedLong = String(repeating: "b", count: 240) + ".png"
        let claimedLong = String(repeating: "c", count: 250) + ".png"  // 254 bytes: `1.` + it was 256
        let longest = String(repeating: "d", count: 251) + ".png"  // 255 bytes
        let accented = String(repeating: "é", count: 125) + ".png"  // 254 bytes, 129 characters
        try box.drop(rejectedLong, junk)
        try box.drop(archivedLong, Self.contact(1))
        try box.drop(claimedLong, Self.contact(2))
        try box.drop(longest, junk)
        try box.drop("zz.png", Self.contact(3))
        let watch = try box.start()
        #expect(watch.waitForLines(5))
        // The same names again while it runs: filed beside the first ones under `-1` names that fit.
        try box.drop(accented, junk)
        try box.drop(longest, Array("still not a png".utf8))
        // Renamed in from beside the inbox: `NAME.part` would itself be too long.
        let staging = box.folder.file("staging.png")
        try Data(Self.contact(4)).write(to: URL(fileURLWithPath: staging))
        #expect(rename(staging, box.inbox + "/" + claimedLong) == 0)
        #expect(watch.waitForLines(8))
        #expect(watch.terminate().status == 0)

        let records = watch.records
        #expect(records.count == 8)
        let outcomes = records.map {
            URL(fileURLWithPath: $0["file"] as? String ?? "").lastPathComponent + " "
                + ($0["outcome"] as? String ?? "?")
        }
        #expect(
            outcomes.sorted()
                == [
                    "\(accented) rejected", "\(archivedLong) inserted", "\(claimedLong) inserted",
                    "\(claimedLong) inserted", "\(longest) rejected", "\(longest) rejected",
                    "\(rejectedLong) rejected", "zz.png inserted",
                ].sorted())
        // Names that fit are kept; the second `claimedLong` gets a shortened `-1` name.
        let archived = box.images(in: box.archive)
        #expect(archived.count == 4)
        #expect(Set([archivedLong, claimedLong, "zz.png"]).isSubset(of: Set(archived)))
        let rejected = box.images(in: box.rejected)
        #expect(rejected.count == 4)
        #expect(box.names(in: box.rejected).count == 8)
        for name in archived + rejected {
            #expect(name.hasSuffix(".png") && name.utf8.count <= 255, "\(name)")
            #expect(!name.contains("\u{FFFD}"), "\(name)")
        }
        for name in rejected {
            #expect(name.utf8.count + ".reason.json".utf8.count <= 255, "\(name)")
            let reason = try box.reason(name)
            #expect([rejectedLong, longest, accented].contains(reason["file"] as? String ?? ""), "\(name)")
        }
        #expect(box.waiting.isEmpty && box.claimed.isEmpty)
        #expect(
            try box.prospects() == [Self.email(1): [1], Self.email(2): [1], Self.email(3): [1], Self.email(4): [1]])
    }

    /// A file the watcher may not take (a sticky inbox, a file of another user): reported once, on stderr and as a
    /// `failed` line, and the other files go on. It is not tried again until it changes; then it is taken.
    /// A name that is not UTF-8 (Latin-1 `café.png`) cannot be opened through any String path: the file is reported
    /// once as `failed`, stays in the inbox untouched, and the others go on, whether it was there at start or
    /// dropped live. Before, it was skipped in silence for ever.
    @Test func aFileWhoseNameIsNotUTF8IsReportedOnceAndLeftInTheInbox() throws {
        let box = try WatchSandbox()
        /// `INBOX/<stem>\xE9.png`, written through the raw bytes of its path.
        func latin1Path(_ stem: String) -> [CChar] {
            (Array((box.inbox + "/" + stem).utf8) + [0xE9] + Array(".png".utf8) + [0]).map { CChar(bitPattern: $0) }
        }
        func dropLatin1(_ stem: String, _ bytes: [UInt8]) {
            let fd = latin1Path(stem).withUnsafeBufferPointer { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
            #expect(fd >= 0 && write(fd, bytes, bytes.count) == bytes.count)
            close(fd)
        }
        dropLatin1("caf", Self.contact(1))
        try box.drop("ok.png", Self.contact(2))
        let watch = try box.start()
        #expect(watch.waitForLines(2))
        dropLatin1("th", Self.contact(3))
        try box.drop("later.png", Self.contact(4))
        #expect(watch.waitForLines(4))
        #expect(watch.terminate().status == 0)
        #expect(watch.lines.count == 4, "each reported once: \(watch.lines)")

        let failed = watch.records.filter { $0["outcome"] as? String == "failed" }
        #expect(
            Set(failed.compactMap { ($0["file"] as? String)?.split(separator: "/").last }) == [
                "caf\u{FFFD}.png", "th\u{FFFD}.png",
            ])
        #expect(watch.waitForStderr("caf\u{FFFD}.png: cannot take it: its name is not valid UTF-8"))
        for stem in ["caf", "th"] {
            #expect(latin1Path(stem).withUnsafeBufferPointer { access($0.baseAddress!, F_OK) } == 0, "\(stem) stays")
        }
        #expect(try box.prospects() == [Self.email(2): [1], Self.email(4): [1]])
    }

    @Test func aFileTheWatcherMayNotClaimIsReportedOnceAndTheOthersGoOn() throws {
        let (launcher, nobody) = try Self.asNobody()
        let box = try WatchSandbox()
        // The layout of a shared drop folder: sticky and world-writable, like /tmp; the watcher runs as nobody.
        #expect(chmod(box.folder.path, 0o1777) == 0)
        #expect(chmod(box.inbox, 0o1777) == 0)
        func dropAsNobody(_ name: String, _ bytes: [UInt8]) throws {
            let staging = box.folder.file("staging-" + name)
            try Data(bytes).write(to: URL(fileURLWithPath: staging))
            #expect(chown(staging, nobody.pw_uid, nobody.pw_gid) == 0)
            #expect(rename(staging, box.inbox + "/" + name) == 0)
        }
        try box.drop("a.png", Self.contact(1))  // root's: nobody may not rename it out of a sticky folder
        try dropAsNobody("b.png", Self.contact(2))
        let watch = try box.start(["--poll", "0.1"], launcher: launcher)
        #expect(watch.waitForLines(2))
        try dropAsNobody("c.png", Self.contact(3))
        #expect(watch.waitForLines(3))
        // Many scans later (one more file found by a scan and settled: half a second of scans every 0.1 s), the
        // refused file has been reported exactly once: no hot loop.
        try dropAsNobody("d.png", Self.contact(4))
        #expect(watch.waitForLines(4))
        #expect(watch.lines.count == 4)
        #expect(watch.stderr.components(separatedBy: "a.png: ").count == 2)
        #expect(watch.waitForStderr("Operation not permitted"))
        let failed = Self.byFile(watch.records)["a.png"]
        #expect(failed?["outcome"] as? String == "failed")
        #expect(
            ((failed?["error"] as? [String: Any])?["message"] as? String)?.contains("Operation not permitted") == true)
        #expect(failed?["movedTo"] is NSNull)
        #expect(box.waiting == ["a.png"])

        // The owner hands the file over: it changed, so it is tried again, and taken.
        #expect(chown(box.inbox + "/a.png", nobody.pw_uid, nobody.pw_gid) == 0)
        #expect(watch.waitForLines(5))
        #expect(watch.terminate().status == 0)
        #expect((watch.records.last?["file"] as? String)?.hasSuffix("/a.png") == true)
        #expect(watch.records.last?["outcome"] as? String == "inserted")
        // Taken in the end, so not counted among the files that could not be taken.
        #expect(watch.waitForStderr("stopped: 4 files, 4 inserted, 0 duplicates, 0 rejected\n"), "\(watch.stderr)")
        #expect(box.images(in: box.archive) == ["a.png", "b.png", "c.png", "d.png"])
        #expect(box.waiting.isEmpty && box.claimed.isEmpty)
        #expect(
            try box.prospects() == [
                Self.email(1): [1], Self.email(2): [1], Self.email(3): [1], Self.email(4): [1],
            ])
    }

    /// A file whose outcome is committed but that cannot be moved (here the archive stops being writable while the
    /// watcher runs as another user): reported as `failed` with where it stays, the watcher goes on, and the next
    /// start takes the file up again and files it as a duplicate. Before, the daemon stopped (exit 74).
    @Test func aFileTheWatcherCannotMoveStaysClaimedAndIsTakenUpAtTheNextStart() throws {
        let (launcher, nobody) = try Self.asNobody()
        let box = try WatchSandbox()
        #expect(chmod(box.folder.path, 0o1777) == 0)
        for folder in [box.inbox, box.archive] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            #expect(chown(folder, nobody.pw_uid, nobody.pw_gid) == 0)
        }
        var watch = try box.start(launcher: launcher)
        #expect(watch.waitForStderr("watching"))
        #expect(chmod(box.archive, 0o555) == 0)
        try box.drop("a.png", Self.contact(1))
        #expect(watch.waitForLines(1))
        try box.drop("b.png", PNGFixtures.contactCode("https://example.com/not-a-contact"))
        #expect(watch.waitForLines(2))
        #expect(watch.terminate().status == 0)

        let failed = try #require(watch.records.first)
        #expect(failed["outcome"] as? String == "failed")
        #expect((failed["prospects"] as? [Any])?.count == 1)
        #expect(((failed["error"] as? [String: Any])?["message"] as? String)?.contains("Permission denied") == true)
        #expect((failed["stuckAt"] as? String)?.contains("/.processing/") == true)
        #expect(watch.waitForStderr("a.png (inserted, committed): cannot move it: Permission denied"))
        #expect(watch.records.last?["outcome"] as? String == "rejected")
        #expect(box.claimed.count == 1)

        // Writable again: the next start takes the claim up; the ledger knows its content.
        #expect(chmod(box.archive, 0o755) == 0)
        watch = try box.start(launcher: launcher)
        #expect(watch.waitForLines(1))
        #expect(watch.terminate().status == 0)
        #expect(watch.records.first?["outcome"] as? String == "duplicate")
        #expect(box.images(in: box.archive) == ["a.png"])
        #expect(box.waiting.isEmpty && box.claimed.isEmpty)
        #expect(try box.prospects() == [Self.email(1): [1]])
    }

    /// An archive or quarantine that is the inbox itself (however it is spelled) or the claims folder would feed
    /// every file back in forever: refused at start as a configuration error.
    @Test func anArchiveOrQuarantineThatIsTheInboxIsAConfigurationError() throws {
        let box = try WatchSandbox()
        try box.drop("a.png", Self.contact(1))
        let link = box.folder.file("inbox-link")
        #expect(symlink(box.inbox, link) == 0)
        for arguments in [
            ["--archive", box.inbox], ["--rejected", box.inbox + "/."], ["--archive", link + "/"],
            ["--rejected", box.inbox + "/.processing"],
        ] {
            let watch = try box.start(arguments)
            let status = watch.waitForExit(timeout: 4)
            #expect(status == 78, "\(arguments)")
            #expect(watch.waitForStderr("cannot watch"), "\(arguments)")
            #expect(watch.lines.isEmpty, "\(arguments)")
        }
        #expect(box.waiting == ["a.png"])
        #expect(try box.prospects().isEmpty)
        #expect(box.names(in: box.inbox) == ["a.png"], "a refused start leaves no archive or quarantine behind")
    }

    /// A configured folder given as a symbolic link to a directory is followed (an admin's usual setup); entries
    /// inside the inbox are still never followed (see `hostileEntriesAreQuarantinedNeverFollowedAndNeverBlock`).
    @Test func aSymlinkedInboxAndArchiveAreFollowed() throws {
        let box = try WatchSandbox()
        let inboxLink = box.folder.file("inbox-link")
        let archive = box.folder.file("real-archive")
        let archiveLink = box.folder.file("archive-link")
        try FileManager.default.createDirectory(atPath: archive, withIntermediateDirectories: true)
        #expect(symlink(box.inbox, inboxLink) == 0)
        #expect(symlink(archive, archiveLink) == 0)
        try box.drop("a.png", Self.contact(1))
        let watch = try WatchProcess(inbox: inboxLink + "/", store: box.store, arguments: ["--archive", archiveLink])
        #expect(watch.waitForLines(1))
        try box.drop("b.png", Self.contact(2))
        #expect(watch.waitForLines(2))
        #expect(watch.terminate().status == 0)
        #expect(box.names(in: archive) == ["a.png", "b.png"])
        #expect(box.waiting.isEmpty && box.claimed.isEmpty)
        var info = stat()
        #expect(lstat(archiveLink, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    }

    /// Watcher A starts, then B; B claims a file and dies (kill -9) before finishing it. A, which saw no other
    /// watcher when it started, must still notice the dead claim folder and take the file up within seconds.
    @Test func aWatcherThatStartedLaterAndDiedHasItsClaimsTakenUp() throws {
        let box = try WatchSandbox()
        let first = try box.start()
        #expect(first.waitForStderr("watching"))
        let second = try box.start(["--workers", "1"])
        #expect(second.waitForStderr("watching"))
        // A may not take the file; B's decoder is frozen, so B claims it and holds it.
        first.signal(SIGSTOP)
        let decoders = second.children
        #expect(!decoders.isEmpty)
        for pid in decoders { kill(pid, SIGSTOP) }
        try box.drop("a.png", Self.contact(1))
        #expect(box.wait(timeout: 5) { box.claimed.count == 1 })
        second.signal(SIGKILL)
        _ = second.waitForExit()
        for pid in decoders { kill(pid, SIGKILL) }
        first.signal(SIGCONT)

        #expect(first.waitForLines(1, timeout: 8))
        #expect(first.terminate().status == 0)
        #expect(first.records.first?["outcome"] as? String == "inserted")
        #expect(box.images(in: box.archive) == ["a.png"])
        #expect(box.claimed.isEmpty)
        #expect(try box.prospects() == [Self.email(1): [1]])
    }

    /// A file an operator moves from the quarantine back into the inbox keeps its inode; if it is refused again it
    /// gets a reason file of its own, never the old one left behind (whose reason may no longer be true).
    @Test func aFileMovedBackFromTheQuarantineGetsAFreshReason() throws {
        let box = try WatchSandbox()
        let watch = try box.start()
        #expect(watch.waitForStderr("watching"))
        try box.drop("x.png", Array("not a png".utf8))
        #expect(watch.waitForLines(1))
        #expect(try box.reason("x.png")["kind"] as? String == "unreadableImage")

        // The operator replaces the content in place (same inode), then moves the file back.
        let second = PNGFixtures.contactCode("https://example.com/not-a-contact")
        let fd = open(box.rejected + "/x.png", O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        _ = second.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(rename(box.rejected + "/x.png", box.inbox + "/x.png") == 0)
        #expect(watch.waitForLines(2))
        #expect(watch.terminate().status == 0)

        let kind = (watch.records.last?["error"] as? [String: Any])?["kind"] as? String
        #expect(kind != nil && kind != "unreadableImage")
        let destination = try #require(watch.records.last?["movedTo"] as? String)
        let name = URL(fileURLWithPath: destination).lastPathComponent
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == Data(second))
        #expect(try box.reason(name)["kind"] as? String == kind)
        // The old reason file is still there: nothing is deleted.
        #expect(try box.reason("x.png")["kind"] as? String == "unreadableImage")
        #expect(box.waiting.isEmpty && box.claimed.isEmpty)
    }

    @Test func systemdHearsReadyWatchdogAndStopping() throws {
        let box = try WatchSandbox()
        let socket = try NotifySocket()
        let watch = try box.start(environment: ["NOTIFY_SOCKET": socket.address, "WATCHDOG_USEC": "200000"])
        var heard: [String] = []
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && !(heard.contains("READY=1") && heard.contains("WATCHDOG=1")) {
            if let message = socket.receive() { heard += message.split(separator: "\n").map(String.init) }
        }
        #expect(heard.contains("READY=1"))
        #expect(heard.contains("WATCHDOG=1"))
        #expect(heard.contains { $0.hasPrefix("STATUS=watching") })
        watch.signal(SIGTERM)
        var stopping = false
        let stopDeadline = Date().addingTimeInterval(5)
        while !stopping && Date() < stopDeadline, let message = socket.receive() {
            stopping = message.contains("STOPPING=1")
        }
        #expect(stopping)
        #expect(watch.waitForExit() == 0)
    }
}
