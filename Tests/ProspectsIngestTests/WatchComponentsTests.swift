import Foundation
import Glibc
import ProspectsCore
import QRDecoding
import Testing

@testable import ProspectsIngest

/// The watcher's parts on their own, on real folders, real inotify and real sockets.
@Suite final class WatchComponentsTests {
    let folder: String

    init() throws {
        folder =
            FileManager.default.temporaryDirectory.appendingPathComponent("prospects-watch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/inbox", withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    var inboxPath: String { folder + "/inbox" }

    func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func inputNamesAreAnyNameThatIsNeitherHiddenNorTemporary() {
        // Read by content: the name says nothing of what the file is.
        for name in [
            "a.png", "A.PNG", "scan 1.png", "x.y.png", "IMG_0001.HEIC", "photo.jpeg", "chat.webp", "notes.txt",
            "noext", "archive", "sub/a.jpg", "a.png.reason.json",
        ] {
            #expect(Inbox.isInputName(name), "\(name)")
        }
        for name in [
            ".a.png", "sub/.a.jpg", ".DS_Store", "._a.jpg", ".syncthing.a.jpg.tmp", "~syncthing~a.jpg.tmp",
            ".a.jpg.~1a2b3c", "a.png.part", "a.PART", "a.jpg.partial", "a.png.tmp", "a.jpg.temp",
            "a.jpg.crdownload", "a.jpg.download", "a.jpg.filepart", "a.jpg.opdownload", "a.jpg.!qB", "a.jpg.!sync",
            "a.png~", "~$report.docx", "Thumbs.db", "desktop.ini",
        ] {
            #expect(!Inbox.isInputName(name), "\(name)")
        }
        #expect(Array(Inbox.candidateNames(for: "x.png").prefix(3)) == ["x.png", "x-1.png", "x-2.png"])
        #expect(Array(Inbox.candidateNames(for: "noext").prefix(2)) == ["noext", "noext-1"])
        // Names that do not fit are cut in the stem, on a character boundary, keeping the extension.
        let long = String(repeating: "é", count: 120) + ".png"  // 244 bytes
        #expect(Array(Inbox.candidateNames(for: long).prefix(1)) == [long])
        let fitted = Array(Inbox.candidateNames(for: long, limit: 243).prefix(3))
        #expect(fitted[0] == String(repeating: "é", count: 119) + ".png")
        #expect(fitted[1] == String(repeating: "é", count: 118) + "-1.png")
        #expect(fitted[2] == String(repeating: "é", count: 118) + "-2.png")
        #expect(fitted.allSatisfy { $0.utf8.count <= 243 })
    }

    @Test func claimsAreExclusiveAndMovesNeverOverwrite() throws {
        let inbox = try Inbox(path: inboxPath, archive: nil, rejected: nil)
        let first = try ClaimDirectory(root: inbox.claimsRoot)
        let second = try ClaimDirectory(root: inbox.claimsRoot)
        try write(inboxPath + "/x.png", "one")
        #expect(try inbox.waitingNames().names == ["x.png"])
        let claim = try #require(try first.claim(name: "x.png", inbox: inboxPath))
        #expect(try second.claim(name: "x.png", inbox: inboxPath) == nil)

        try write(inbox.archive + "/x.png", "already there")
        let destination = try inbox.archive(claim)
        #expect(destination == inbox.archive + "/x-1.png")
        #expect(try String(contentsOfFile: inbox.archive + "/x.png", encoding: .utf8) == "already there")
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "one")
    }

    @Test func aRejectedFileGetsItsReasonAndAReasonLeftByACrashIsReused() throws {
        let inbox = try Inbox(path: inboxPath, archive: nil, rejected: nil)
        let claims = try ClaimDirectory(root: inbox.claimsRoot)
        try write(inboxPath + "/bad.png", "junk")
        let claim = try #require(try claims.claim(name: "bad.png", inbox: inboxPath))
        let inode = try #require(try FileSystemCalls.entry(claim.claimedPath)).inode
        let token = ClaimDirectory.token(of: claim.claimedPath)
        #expect(token.count == ClaimDirectory.tokenLength)
        let reason = QuarantineReason(
            file: "bad.png", error: .noCodeFound, time: Date(), contentHash: "abc", inode: inode, claim: token)

        // A reason file for the same inode but another claim (the file was quarantined before, and moved back into
        // the inbox by hand), or of an earlier version without a claim token: not this file's, left alone.
        var other = reason
        other.claim = "0000000000000001"
        try write(inbox.rejected + "/bad.png.reason.json", other.rendered)
        try write(inbox.rejected + "/bad-1.png.reason.json", #"{"file":"bad.png","inode":\#(inode)}"# + "\n")
        // A watcher killed after writing the reason file, before moving the image: the reason is already there.
        try write(inbox.rejected + "/bad-2.png.reason.json", reason.rendered)
        let destination = try inbox.reject(claim, reason: reason, scratch: claims.scratchPath("reason"))
        #expect(destination == inbox.rejected + "/bad-2.png")
        #expect(
            try FileSystemCalls.names(in: inbox.rejected).sorted() == [
                "bad-1.png.reason.json", "bad-2.png", "bad-2.png.reason.json", "bad.png.reason.json",
            ])
        #expect(try String(contentsOfFile: inbox.rejected + "/bad.png.reason.json", encoding: .utf8) == other.rendered)

        // Another file of the same name: a new pair beside the first, nothing overwritten.
        try write(inboxPath + "/bad.png", "junk 2")
        let second = try #require(try claims.claim(name: "bad.png", inbox: inboxPath))
        let secondInode = try #require(try FileSystemCalls.entry(second.claimedPath)).inode
        let secondReason = QuarantineReason(
            file: "bad.png", error: .unreadableImage(format: "PNG", reason: "x"), time: Date(), contentHash: nil,
            inode: secondInode,
            claim: ClaimDirectory.token(of: second.claimedPath))
        #expect(
            try inbox.reject(second, reason: secondReason, scratch: claims.scratchPath("r")) == inbox.rejected
                + "/bad-3.png")
        let json =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: inbox.rejected + "/bad-3.png.reason.json")))
            as? [String: Any]
        #expect(json?["kind"] as? String == "unreadableImage")
        #expect(json?["file"] as? String == "bad.png")
    }

    @Test func claimsOfALiveWatcherAreLeftAloneAndThoseOfADeadOneAdopted() throws {
        let inbox = try Inbox(path: inboxPath, archive: nil, rejected: nil)
        var other: ClaimDirectory? = try ClaimDirectory(root: inbox.claimsRoot)
        let mine = try ClaimDirectory(root: inbox.claimsRoot)
        try write(inboxPath + "/x.png", "x")
        let token = ClaimDirectory.token(
            of: try #require(try other!.claim(name: "x.png", inbox: inboxPath)).claimedPath)

        var found = mine.adoptAbandoned(inbox: inboxPath)
        #expect(found.claims.isEmpty && found.othersAlive)
        other = nil  // the process "dies": its lock is released
        found = mine.adoptAbandoned(inbox: inboxPath)
        #expect(found.claims.map(\.name) == ["x.png"])
        #expect(found.claims.first?.inboxPath == inboxPath + "/x.png")
        // Taken up under the same token: a reason file written for the claim still belongs to it.
        #expect(found.claims.first.map { ClaimDirectory.token(of: $0.claimedPath) } == token)
        #expect(!found.othersAlive)
        #expect(try FileSystemCalls.names(in: inbox.claimsRoot) == [URL(fileURLWithPath: mine.path).lastPathComponent])
        #expect(ClaimDirectory.originalName(of: "12.a.b.png") == "a.b.png")
        #expect(ClaimDirectory.originalName(of: "0badcafe0000002a.a.b.png") == "a.b.png")
        #expect(ClaimDirectory.originalName(of: ".x.png") == ".x.png")
    }

    @Test func inotifyAnnouncesClosedAndRenamedFilesAndOverflow() throws {
        let watcher = try InboxWatcher(path: inboxPath)
        #expect(try watcher.readEvents().isEmpty)
        try write(inboxPath + "/closed.png", "data")
        try write(inboxPath + "/moved.png.part", "data")
        #expect(rename(inboxPath + "/moved.png.part", inboxPath + "/moved.png") == 0)
        #expect(symlink("/etc/passwd", inboxPath + "/link.png") == 0)
        #expect(unlink(inboxPath + "/closed.png") == 0)
        var fds = [pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&fds, 1, 1000) == 1)
        let events = try watcher.readEvents()
        #expect(events.contains(.completed(name: "closed.png")))
        #expect(events.contains(.completed(name: "moved.png")))
        #expect(events.contains(.created(name: "link.png")))
        #expect(events.contains(.removed(name: "moved.png.part")))
        #expect(events.contains(.removed(name: "closed.png")))

        // struct inotify_event { wd, mask, cookie, len } with IN_Q_OVERFLOW and no name.
        var raw: [UInt8] = []
        for field in [UInt32(1), UInt32(IN_Q_OVERFLOW), 0, 0] { withUnsafeBytes(of: field) { raw += $0 } }
        var parsed: [InboxWatcher.Event] = []
        InboxWatcher.parse(raw[...], into: &parsed)
        #expect(parsed == [.overflow])
    }

    @Test func subfoldersAreListedAndWatchedWithPathsInTheInbox() throws {
        let inbox = try Inbox(path: inboxPath, archive: nil, rejected: nil)
        for folder in ["sub/deeper", ".hidden", "dir.png", "x.jpg.download"] {
            try FileManager.default.createDirectory(
                atPath: inboxPath + "/" + folder, withIntermediateDirectories: true)
        }
        #expect(symlink(folder, inboxPath + "/link") == 0)
        for file in [
            "top.png", "notes.txt", "sub/a.png", "sub/IMG_1.JPG", "sub/b.jpg.part", "sub/deeper/b.png",
            "dir.png/c.webp", ".hidden/h.png", "archive/old.png", "rejected/bad.txt", "sub/.x.png",
            "x.jpg.download/y.jpg",
        ] {
            try write(inboxPath + "/" + file, "data")
        }
        // A folder is never input; a link is (it is quarantined, never followed).
        let flat = try inbox.waitingNames()
        #expect(flat.names == ["link", "notes.txt", "top.png"] && flat.folders.isEmpty)
        let deep = try inbox.waitingNames(recursive: true)
        #expect(
            deep.names == [
                "dir.png/c.webp", "link", "notes.txt", "sub/IMG_1.JPG", "sub/a.png", "sub/deeper/b.png", "top.png",
            ])
        #expect(deep.folders == ["dir.png", "sub", "sub/deeper"])
        // The archive is never walked, however its path is spelled.
        let spelled = try Inbox(
            path: inboxPath, archive: inboxPath + "/./sub/deeper", rejected: inboxPath + "//dir.png")
        #expect(
            try spelled.waitingNames(recursive: true).names == [
                "archive/old.png", "link", "notes.txt", "rejected/bad.txt", "sub/IMG_1.JPG", "sub/a.png", "top.png",
            ])

        let watcher = try InboxWatcher(path: inboxPath)
        try watcher.watch(folder: "sub/deeper")
        try write(inboxPath + "/sub/deeper/c.png", "data")
        #expect(mkdir(inboxPath + "/sub/deeper/new", 0o755) == 0)
        var fds = [pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&fds, 1, 1000) == 1)
        let events = try watcher.readEvents()
        #expect(events.contains(.completed(name: "sub/deeper/c.png")))
        #expect(events.contains(.folderCreated(name: "sub/deeper/new")))
        // The subfolder removed: its watch ends quietly, and the inbox is not taken for gone.
        try FileManager.default.removeItem(atPath: inboxPath + "/sub/deeper")
        #expect(poll(&fds, 1, 1000) == 1)
        #expect(try !watcher.readEvents().contains(.folderGone))
    }

    @Test func decoderMessagesSurviveTheTrip() throws {
        let symbol = QRSymbol(
            bytes: Array("Ann\nann@example.com".utf8), text: "Ann\nann@example.com", encoding: "UTF-8",
            corners: [Point(x: 1, y: 2), Point(x: -3, y: 400_000)], quality: 7)
        var found = symbol
        found.pass = "region"
        for result: Result<[QRSymbol], DecodeError> in [
            .success([symbol, found]), .success([]), .failure(.unreadableImage(reason: "bad CRC")),
            .failure(.imageTooLarge(width: 30_000, height: 30_000, limit: 50_000_000)),
            .failure(.scanFailed(reason: "zbar -1")), .failure(.scanFailed(format: .jpeg, reason: "zbar -1")),
        ] {
            let frame = DecoderMessage.reply(result)
            #expect(DecoderMessage.frameLength(frame[...]) == frame.count - 4)
            #expect(DecoderMessage.parseReply(frame[4...]) == result)
        }
        let request = DecoderMessage.request(name: "x.png", png: [1, 2, 3])
        let parsed = try #require(DecoderMessage.parseRequest(Array(request[4...])))
        #expect(parsed.name == "x.png" && parsed.png == [1, 2, 3])
        #expect(DecoderMessage.parseReply(DecoderMessage.reply(.success([symbol])).dropLast()[4...]) == nil)
    }

    @Test func sdNotifySendsOneDatagramToAPathOrAbstractSocket() throws {
        for abstract in [false, true] {
            let name = abstract ? "@prospects-unit-\(getpid())" : folder + "/notify.sock"
            let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let path = abstract ? [0] + Array(name.utf8.dropFirst()) : Array(name.utf8) + [0]
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            #expect(bound == 0)
            let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "4000000"])
            #expect(notifier.watchdogInterval == .seconds(2))
            #expect(notifier.send("READY=1\nSTATUS=ok"))
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            #expect(count > 0 && String(decoding: buffer[..<max(count, 0)], as: UTF8.self) == "READY=1\nSTATUS=ok")
        }
        let silent = SystemdNotifier(environment: ["WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"])
        #expect(!silent.isEnabled && !silent.send("READY=1"))
        #expect(silent.watchdogInterval == nil)
    }
}
