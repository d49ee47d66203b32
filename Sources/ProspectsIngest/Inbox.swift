import Foundation
import Glibc
import ProspectsCore
import SystemCalls

/// The drop folder and its two outcome folders: which names are input, what is waiting, and the moves that end a
/// file's stay.
///
/// Every move is a `renameat2(RENAME_NOREPLACE)`: atomic (after a crash a file is in exactly one place) and never
/// over an existing file (a name already taken gets `-1`, `-2`… before its extension). That is why the archive and
/// the quarantine must be on the inbox's file system, which `init` checks.
final class Inbox {
    /// The name of the hidden folder holding every watcher's claims.
    static let claimsFolderName = ".processing"

    let path: String
    let archive: String
    let rejected: String
    var claimsRoot: String { path + "/" + Inbox.claimsFolderName }
    /// The inbox folder watched, as found at start: a folder put in its place later is not it. Its path from `/`:
    /// a relative one would follow the working folder when that moves or goes, and so never find it gone.
    private let device: UInt64
    private let inode: UInt64
    private let absolutePath: String

    /// Checks the inbox, creates the archive and quarantine when missing, and makes sure renames between them work
    /// and that neither is the inbox itself or inside its claim folder (however the path is spelled). A refused
    /// configuration leaves no folder behind.
    init(path: String, archive: String?, rejected: String?) throws(WatchError) {
        let inbox = Inbox.normalized(path)
        self.path = inbox
        self.archive = Inbox.normalized(archive ?? inbox + "/archive")
        self.rejected = Inbox.normalized(rejected ?? inbox + "/rejected")

        let info: EntryInfo?
        // The configured folders themselves may be symbolic links to folders (an admin's usual setup), so they
        // are followed; entries inside the inbox never are.
        do { info = try FileSystemCalls.entry(inbox, following: true) } catch { throw .system(error) }
        guard let info else { throw .inboxMissing(path: inbox) }
        guard info.kind == .directory else { throw .badConfiguration("the inbox \(inbox) is not a directory") }
        (device, inode) = (info.device, info.inode)
        absolutePath = inbox.hasPrefix("/") ? inbox : FileManager.default.currentDirectoryPath + "/" + inbox
        let claims = FileSystemCalls.resolvedPath(inbox).map { $0 + "/" + Inbox.claimsFolderName }
        var created: [String] = []
        for folder in [self.archive, self.rejected] {
            do {
                if try FileSystemCalls.makeDirectory(folder) { created.append(folder) }
                guard let made = try FileSystemCalls.entry(folder, following: true), made.kind == .directory else {
                    throw WatchError.badConfiguration("\(folder) is not a directory")
                }
                guard made.device == info.device else {
                    throw WatchError.badConfiguration(
                        "\(folder) is on another file system than the inbox; files are moved by atomic rename")
                }
                // A file moved there would be found in the inbox, or among the claims, again and again.
                guard made.inode != info.inode else {
                    throw WatchError.badConfiguration(
                        "\(folder) is the inbox itself; files moved there would come back")
                }
                if let resolved = FileSystemCalls.resolvedPath(folder), let claims,
                    resolved == claims || resolved.hasPrefix(claims + "/")
                {
                    throw WatchError.badConfiguration("\(folder) is inside the inbox's claim folder \(claims)")
                }
            } catch {
                for folder in created.reversed() { FileSystemCalls.removeEmptyDirectory(folder) }
                switch error {
                case let error as SystemCallError: throw .badConfiguration("cannot use \(folder): \(error.reason)")
                case let error as WatchError: throw error
                default: throw .badConfiguration("cannot use \(folder)")
                }
            }
        }
    }

    /// Throws `.inboxGone` when the inbox path no longer names the folder watched since the start: deleted, or
    /// moved away (and perhaps replaced). inotify alone cannot tell: while any process holds the folder open,
    /// deleting it raises no `IN_DELETE_SELF`, and a poll would only meet a failing `opendir`.
    func checkStillThere() throws(WatchError) {
        let now: EntryInfo?
        do {
            now = try FileSystemCalls.entry(absolutePath, following: true)
        } catch  where error.code == ELOOP {
            now = nil  // the inbox link now leads round in a circle: no folder at all
        } catch {
            throw .system(error)
        }
        guard let now, now.kind == .directory, now.device == device, now.inode == inode else {
            throw .inboxGone(path: path)
        }
    }

    /// True for names dropped as input: any name, read by content, except hidden names and the names writers give
    /// a file they have not finished (see docs/watch.md). A path in a subfolder (`sub/x.jpg`) is judged by its last
    /// part.
    static func isInputName(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let lower = name.lowercased()
        // Hidden: `.x.jpg`, and with it rsync's `.x.jpg.Ab12Cd`, Syncthing's `.syncthing.x.jpg.tmp`, Nextcloud's
        // `.x.jpg.~1a2b`, macOS's `._x.jpg` and `.DS_Store`, LibreOffice's `.~lock.x#`.
        if name.hasPrefix(".") || name.hasSuffix("~") || name.hasPrefix("~$") || name.hasPrefix("~syncthing~") {
            return false
        }
        if temporarySuffixes.contains(where: { lower.hasSuffix($0) }) { return false }
        return !systemFiles.contains(lower)
    }

    /// The endings browsers, download and sync tools give a file until it is whole.
    static let temporarySuffixes = [
        ".part", ".partial", ".tmp", ".temp", ".crdownload", ".download", ".filepart", ".opdownload", ".!qb",
        ".!sync",
    ]

    /// Files the desktops of Windows put in every folder they show: never a picture anyone dropped.
    static let systemFiles: Set<String> = ["thumbs.db", "desktop.ini", "ehthumbs.db"]

    /// The input names now in the inbox, and with `recursive` in its subfolders too (as `sub/x.jpg`), with those
    /// subfolders. A folder is never input: it is walked (`recursive`) or left alone. The archive and quarantine are
    /// never listed or walked, however their paths are spelled; hidden folders and links are not entered (a link is
    /// input, quarantined without being followed).
    func waitingNames(recursive: Bool = false) throws(WatchError) -> (
        names: [String], undecodable: [String], folders: [String]
    ) {
        var names: [String] = []
        var undecodable: [String] = []
        var folders: [String] = []
        // The outcome folders as they are now (one may have been made again since the start).
        var outcomes: Set<[UInt64]> = []
        for folder in [archive, rejected] {
            if let entry = try? FileSystemCalls.entry(folder, following: true) { outcomes.insert(entry.identity) }
        }
        var pending = [""]
        while let folder = pending.popLast() {
            let listing: (names: [String], undecodable: [String])
            do {
                listing = try FileSystemCalls.listing(of: folder.isEmpty ? path : path + "/" + folder)
            } catch  where !folder.isEmpty {
                continue  // a subfolder gone since it was listed
            } catch {
                throw .system(error)
            }
            let inFolder = { (name: String) in folder.isEmpty ? name : folder + "/" + name }
            for name in listing.names where Inbox.isInputName(name) {
                let relative = inFolder(name)
                let full = path + "/" + relative
                guard full != archive && full != rejected else { continue }
                let entry: EntryInfo?
                do { entry = try FileSystemCalls.entry(full) } catch { continue }
                guard let entry else { continue }  // gone since listed: nothing to take
                guard entry.kind == .directory else {
                    names.append(relative)
                    continue
                }
                if recursive && !outcomes.contains(entry.identity) {
                    folders.append(relative)
                    pending.append(relative)
                }
            }
            undecodable += listing.undecodable.filter(Inbox.isInputName).map(inFolder)
        }
        return (names.sorted(), undecodable.sorted(), folders.sorted())
    }

    /// Makes the archive or quarantine folder again if it has gone since the start (someone tidied up, or moved
    /// it away); returns the path when it did. A file bound for it would otherwise stop the watcher.
    func remakeIfGone(_ folder: String) throws(SystemCallError) -> String? {
        guard try FileSystemCalls.entry(folder, following: true) == nil else { return nil }
        return try FileSystemCalls.makeDirectory(folder) ? folder : nil
    }

    /// Moves a committed file into the archive; returns where it went.
    func archive(_ claim: FileClaim) throws(SystemCallError) -> String {
        try move(claim, into: archive) { _ throws(SystemCallError) in true }
    }

    /// Moves a refused file into the quarantine with its reason file beside it; returns where the file went.
    ///
    /// The reason file is put in place first (written in `scratch`, then renamed), the file second, so that no file
    /// ever sits in the quarantine without its reason. A reason file left by a watcher killed between the two steps
    /// names the same claim and inode, and is used instead of writing a second one; any other reason file found
    /// under a candidate name moves the file on to the next name.
    func reject(_ claim: FileClaim, reason: QuarantineReason, scratch: String) throws(SystemCallError) -> String {
        // Each candidate leaves room for its reason file's name.
        let limit = Inbox.nameLimit - QuarantineReason.suffix.utf8.count
        return try move(claim, into: rejected, limit: limit) { destination throws(SystemCallError) in
            let reasonPath = destination + QuarantineReason.suffix
            if try FileSystemCalls.entry(destination) != nil { return false }
            if let existing = FileSystemCalls.contents(reasonPath) { return reason.isSameClaim(as: existing) }
            if try FileSystemCalls.entry(reasonPath) != nil { return false }
            do throws(SystemCallError) {
                try FileSystemCalls.createFile(scratch, bytes: Array(reason.rendered.utf8))
                try FileSystemCalls.renameNoReplace(scratch, reasonPath)
            } catch {
                FileSystemCalls.removeOwnFile(scratch)
                if error.code == EEXIST { return false }
                throw error
            }
            // The reason's name must be on disk before the file joins it: after a power cut, a quarantined file
            // without its reason would be a file nobody can explain.
            try FileSystemCalls.syncFolder(rejected)
            return true
        }
    }

    /// Renames the claimed file into `folder` under the first free candidate name (of at most `limit` bytes) that
    /// `prepare` accepts (`prepare` may also put things in place beside it). Never overwrites: a name taken
    /// meanwhile moves on to the next candidate.
    private func move(
        _ claim: FileClaim, into folder: String, limit: Int = Inbox.nameLimit,
        prepare: (_ destination: String) throws(SystemCallError) -> Bool
    ) throws(SystemCallError) -> String {
        for candidate in Inbox.candidateNames(for: claim.name, limit: limit) {
            let destination = folder + "/" + candidate
            guard try prepare(destination) else { continue }
            do {
                try FileSystemCalls.renameNoReplace(claim.claimedPath, destination)
                return destination
            } catch  where error.code == EEXIST || error.code == ENOTEMPTY {
                continue
            }
        }
        throw SystemCallError("renameat2", path: claim.claimedPath, code: EEXIST)
    }

    /// The longest file name Linux file systems take, in bytes (`NAME_MAX`).
    static let nameLimit = 255

    /// `x.png`, then `x-1.png`, `x-2.png`…, each at most `limit` bytes: a name that does not fit has its stem cut
    /// short (see `fitted`), so that a long name a writer managed to create can still be filed beside others.
    static func candidateNames(for name: String, limit: Int = nameLimit) -> LazyMapSequence<Range<Int>, String> {
        // The type is spelled out: with an opaque result the compiler picked the eager `map` and built all 100,000
        // names for every move.
        (0..<100_000).lazy.map { number in fitted(name, limit: limit, number: number == 0 ? nil : number) }
    }

    /// `name` itself when it fits in `limit` bytes of UTF-8 and no `number` is asked for; otherwise its stem cut at
    /// a character boundary so that `stem-number.ext` fits. The extension is kept (it says what the file is).
    static func fitted(_ name: String, limit: Int, number: Int? = nil) -> String {
        if number == nil && name.utf8.count <= limit { return name }
        // A "extension" longer than any real one is part of the stem: cutting it is better than cutting nothing.
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex || name.utf8[$0...].count > 16 ? nil : $0 }
        let stem = dot.map { name[..<$0] } ?? name[...]
        let ext = dot.map { name[$0...] } ?? ""
        let suffix = number.map { "-\($0)" } ?? ""
        let room = limit - suffix.utf8.count - ext.utf8.count
        var kept = stem.startIndex
        var used = 0
        for character in stem {
            used += character.utf8.count
            if used > room { break }
            kept = stem.index(after: kept)
        }
        return stem[..<kept] + suffix + ext
    }

    private static func normalized(_ path: String) -> String {
        var result = path
        while result.count > 1 && result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
