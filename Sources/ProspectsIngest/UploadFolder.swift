import Foundation
import Glibc
import ProspectsCore
import SystemCalls

/// Where `serve` keeps every uploaded picture, laid out as a watch inbox: `archive/` for files whose outcome is
/// committed, `rejected/` for refused ones with a `NAME.reason.json` beside each (as `watch` writes), and
/// `.incoming/` for files while their request lasts.
///
/// Files move by atomic rename, never over another (a second `IMG_0001.jpg` is filed as `IMG_0001-1.jpg`), so an
/// upload is always in exactly one of the three folders and a server killed mid-upload loses none it acknowledged.
/// Each server has a folder of its own under `.incoming/`, locked while it lives (as a watcher's claim folder):
/// two servers sharing the uploads folder never touch each other's uploads in progress, and a server starting
/// takes up only those of servers that died.
public struct UploadFolder: Sendable {
    public let path: String
    /// Where this server's HTTP server streams uploads and where they wait for their outcome (on the same file
    /// system): its own locked folder under `.incoming/`.
    public let incoming: String
    /// `.incoming/`, the parent of every server's folder.
    public let incomingRoot: String
    /// `receipts/`: what each upload given a receipt became (`ID.json`), for a phone to ask after a crash.
    public let receipts: String
    private let lease: Lease
    public let archive: String
    public let rejected: String

    /// The name of the folder holding uploads whose request is not answered yet.
    public static let incomingFolderName = ".incoming"

    /// Makes the folder and its three inner folders when missing, checking that renames between them work.
    public init(path: String) throws(WatchError) {
        do {
            _ = try FileSystemCalls.makeDirectory(path, mode: 0o700)
        } catch {
            throw .badConfiguration("cannot make the uploads folder \(path): \(error.message)")
        }
        let inbox = try Inbox(path: path, archive: nil, rejected: nil)
        self.path = inbox.path
        archive = inbox.archive
        rejected = inbox.rejected
        incomingRoot = inbox.path + "/" + UploadFolder.incomingFolderName
        receipts = inbox.path + "/receipts"
        do { _ = try FileSystemCalls.makeDirectory(receipts, mode: 0o700) } catch { throw .system(error) }
        let directory = try ClaimDirectory(root: incomingRoot)
        lease = Lease(directory: directory)
        incoming = directory.path
    }

    /// This server's folder under `.incoming/` and its lock, held while any copy of the folder lives; the folder is
    /// removed when it goes, if nothing is left in it.
    private final class Lease: @unchecked Sendable {
        /// Touched at start (recovery) and at the end only, never by two threads at once.
        let directory: ClaimDirectory

        init(directory: ClaimDirectory) { self.directory = directory }

        deinit { directory.release() }
    }

    /// Renames an upload the HTTP server streamed into `incoming` to `TOKEN.NAME` there, NAME being the client's
    /// file name made safe: a readable name for the scan history, and a unique one.
    public func admit(_ streamedPath: String, clientName: String) throws(SystemCallError) -> FileClaim {
        let name = UploadFolder.safeFileName(clientName)
        let token = UploadFolder.randomToken()
        let claimed = incoming + "/" + token + "." + name
        try FileSystemCalls.renameNoReplace(streamedPath, claimed)
        return FileClaim(name: name, inboxPath: claimed, claimedPath: claimed)
    }

    /// Claims what a server killed mid-request left — files the HTTP server was still receiving (`upload-*`) and
    /// files claimed but not yet filed (`TOKEN.NAME`), in the folder of a server that died (its lock free) or
    /// straight in `.incoming/` (by an earlier version) — so that the next start files each one; the scratch reason
    /// files of an unfinished quarantine are removed. Another live server's uploads are left alone.
    public func leftovers() throws(SystemCallError) -> [FileClaim] {
        try leftoversWithReceipts().map(\.claim)
    }

    /// `leftovers()`, each with the receipt its request was given, when the HTTP server put one in its name.
    public func leftoversWithReceipts() throws(SystemCallError) -> [(claim: FileClaim, receipt: String?)] {
        _ = lease.directory.adoptAbandoned(inbox: incoming)
        for name in try FileSystemCalls.names(in: incomingRoot) where !name.hasPrefix(".") {
            let path = incomingRoot + "/" + name
            guard try FileSystemCalls.entry(path)?.kind == .regular else { continue }
            try FileSystemCalls.renameNoReplace(path, incoming + "/" + name)
        }
        var claims: [(claim: FileClaim, receipt: String?)] = []
        for name in try FileSystemCalls.names(in: incoming).sorted() where name != ClaimDirectory.lockName {
            let path = incoming + "/" + name
            guard try FileSystemCalls.entry(path)?.kind == .regular else { continue }
            if name.hasSuffix(".reason.tmp") {
                FileSystemCalls.removeOwnFile(path)
            } else if name.hasPrefix("upload-") {
                // `upload-XXXXXX.NAME` or `upload-XXXXXX.RECEIPT~NAME`: the client's name (and the request's
                // receipt), which the HTTP server put after its own.
                let parts = name.split(separator: ".", maxSplits: 1)
                var clientName = parts.count == 2 ? String(parts[1]) : "interrupted-" + name
                var receipt: String?
                if let tilde = clientName.firstIndex(of: "~") {
                    receipt = String(clientName[..<tilde])
                    clientName = String(clientName[clientName.index(after: tilde)...])
                }
                claims.append((try admit(path, clientName: clientName), receipt))
            } else if let dot = name.firstIndex(of: "."), name.distance(from: name.startIndex, to: dot) == 16 {
                claims.append(
                    (FileClaim(name: String(name[name.index(after: dot)...]), inboxPath: path, claimedPath: path), nil))
            } else {
                claims.append((try admit(path, clientName: name), nil))
            }
        }
        return claims
    }

    /// True for a receipt id: 16 to 32 lowercase hex digits.
    public static func isReceipt(_ id: String) -> Bool {
        (16...32).contains(id.utf8.count) && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A new receipt id: 16 lowercase hex digits from the system's random source.
    public static func newReceipt() -> String { randomToken() }

    /// Writes receipt `id` (replacing one written before, atomically).
    public func writeReceipt(_ id: String, _ bytes: [UInt8]) throws {
        guard UploadFolder.isReceipt(id) else { return }
        try Data(bytes).write(to: URL(fileURLWithPath: receipts + "/" + id + ".json"), options: .atomic)
    }

    /// Receipt `id`'s bytes; nil when there is none.
    public func readReceipt(_ id: String) -> [UInt8]? {
        guard UploadFolder.isReceipt(id) else { return nil }
        return FileSystemCalls.contents(receipts + "/" + id + ".json", limit: 1 << 20)
    }

    /// Removes an upload that is not kept: a camera frame in which no new code was found.
    public func discard(_ claim: FileClaim) {
        FileSystemCalls.removeOwnFile(claim.claimedPath)
    }

    /// Moves a file whose outcome is committed into the archive, or, when it was refused, into the quarantine with
    /// its reason file; returns where it went.
    public func file(_ claim: FileClaim, result: FileResult) throws(SystemCallError) -> String {
        let inbox = try inbox()
        guard result.outcome == .rejected else { return try inbox.archive(claim) }
        return try reject(
            claim, error: result.file.rejection ?? .noCodeFound, contentHash: result.file.contentHash, inbox: inbox)
    }

    /// Moves a file whose content is committed into the archive without decoding it (a frame a phone already read);
    /// returns where it went.
    public func archive(_ claim: FileClaim) throws(SystemCallError) -> String {
        try inbox().archive(claim)
    }

    /// Moves a file refused before decoding (not a picture) into the quarantine with its reason file.
    public func reject(_ claim: FileClaim, error: ScanError) throws(SystemCallError) -> String {
        try reject(claim, error: error, contentHash: nil, inbox: inbox())
    }

    private func reject(_ claim: FileClaim, error: ScanError, contentHash: String?, inbox: Inbox)
        throws(SystemCallError) -> String
    {
        let reason = QuarantineReason(
            file: claim.name, error: error, time: Date(), contentHash: contentHash,
            inode: try FileSystemCalls.entry(claim.claimedPath)?.inode ?? 0,
            claim: ClaimDirectory.token(of: claim.claimedPath))
        let scratch = incoming + "/" + UploadFolder.randomToken() + ".reason.tmp"
        return try inbox.reject(claim, reason: reason, scratch: scratch)
    }

    /// The watch inbox over this folder, whose moves file uploads as they file dropped files.
    private func inbox() throws(SystemCallError) -> Inbox {
        do { return try Inbox(path: path, archive: archive, rejected: rejected) } catch {
            if case .system(let error) = error { throw error }
            throw SystemCallError("rename", path: archive, code: EXDEV)
        }
    }

    /// A client's file name reduced to letters, digits, `.`, `-` and `_` (it is never a path), at most 80 of them.
    public static func safeFileName(_ name: String) -> String {
        let kept = name.unicodeScalars.map { scalar -> Character in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar)
                ? Character(scalar) : "_"
        }
        let trimmed = String(kept.prefix(80)).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return trimmed.isEmpty ? "picture" : trimmed
    }

    /// Sixteen lowercase hex digits from the system's random source.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
