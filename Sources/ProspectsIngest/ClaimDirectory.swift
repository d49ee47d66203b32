import Glibc
import SystemCalls

/// This watcher's own folder under `INBOX/.processing/`, where files sit while it works on them.
///
/// Claiming is `renameat2(RENAME_NOREPLACE)` from the inbox into this folder: of two watchers racing for one file,
/// exactly one rename succeeds. Liveness is an exclusive `flock` on the folder's `.lock`, held for the life of the
/// process: the kernel drops it when the process dies, however it dies (kill -9 included), so another watcher can
/// tell an abandoned claim folder from a busy one without trusting pids, which get reused. A class because it owns
/// the lock's descriptor.
final class ClaimDirectory {
    static let lockName = ".lock"
    /// A claim is named `<token>.<name>`; the token is 16 hex digits: a fixed width, so how much of a long name fits
    /// beside it never depends on how many files came before.
    static let tokenLength = 16

    /// `INBOX/.processing`: every watcher's claim folder lives here.
    let root: String
    /// This watcher's claim folder.
    let path: String
    private let lockFD: Int32
    private var sequence = 0
    /// The first half of each of this watcher's tokens: random, so that tokens differ between watchers.
    private let tokenPrefix = ClaimDirectory.hex(UInt32.random(in: 0...UInt32.max))

    /// Creates and locks a fresh claim folder. It is built under a hidden name and renamed into place once locked,
    /// so no other watcher ever sees it unlocked and mistakes it for an abandoned one.
    init(root: String) throws(WatchError) {
        self.root = root
        do {
            try FileSystemCalls.makeDirectory(root, mode: 0o700)
        } catch {
            throw .system(error)
        }
        let owner = ClaimDirectory.ownerName()
        let staging = root + "/.new-" + owner
        path = root + "/" + owner
        do {
            try FileSystemCalls.makeDirectory(staging, mode: 0o700)
        } catch {
            throw .system(error)
        }
        let fd = open(staging + "/" + ClaimDirectory.lockName, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .system(SystemCallError("open", path: staging + "/" + ClaimDirectory.lockName)) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let error = SystemCallError("flock", path: staging)
            close(fd)
            throw .system(error)
        }
        lockFD = fd
        do {
            try FileSystemCalls.renameNoReplace(staging, path)
        } catch {
            throw .system(error)  // deinit closes lockFD: it runs after a throw here, as every property is set
        }
    }

    deinit { close(lockFD) }

    /// Takes `INBOX/name` for this watcher (`name` may be a path in a subfolder: the claim keeps its last part, the
    /// name it is filed under). Nil when the file is gone: another watcher claimed it first.
    func claim(name path: String, inbox: String) throws(SystemCallError) -> FileClaim? {
        let inboxPath = inbox + "/" + path
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let claimed = nextPath(for: name)
        do {
            try FileSystemCalls.renameNoReplace(inboxPath, claimed)
        } catch  where error.code == ENOENT {
            return nil
        }
        return FileClaim(name: name, inboxPath: inboxPath, claimedPath: claimed)
    }

    /// A hidden scratch path inside this folder for a file being written (a reason file before its rename).
    func scratchPath(_ label: String) -> String {
        sequence += 1
        return path + "/.scratch-\(sequence)-" + label
    }

    /// Adopts the claims of every watcher that died holding some: moves them into this folder and returns them.
    /// Claims of watchers still alive are left alone; folders of dead ones are removed once empty. A claim that
    /// cannot be moved (another user's folder, say) stays where it is, and its error is returned for a report.
    func adoptAbandoned(inbox: String) -> (claims: [FileClaim], othersAlive: Bool, failures: [SystemCallError]) {
        var adopted: [FileClaim] = []
        var failures: [SystemCallError] = []
        var othersAlive = false
        guard let owners = try? FileSystemCalls.names(in: root) else { return ([], false, []) }
        // Hidden entries are folders still being set up (`.new-…`): never adopted, or a watcher starting up could
        // lose its lock file to a recovery running at that instant.
        for owner in owners where !owner.hasPrefix(".") && root + "/" + owner != path {
            let folder = root + "/" + owner
            // The lock file is opened read-only: opening must not create one in a folder being removed.
            let fd = open(folder + "/" + ClaimDirectory.lockName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            if fd >= 0 {
                if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                    close(fd)
                    othersAlive = true
                    continue
                }
            } else if errno != ENOENT {
                continue
            }
            // Dead (or being cleared by another watcher right now): take what it holds, then clear it away.
            for entry in (try? FileSystemCalls.names(in: folder)) ?? [] {
                let source = folder + "/" + entry
                if entry.hasPrefix(".") {
                    if entry != ClaimDirectory.lockName { FileSystemCalls.removeOwnFile(source) }
                    continue
                }
                let name = ClaimDirectory.originalName(of: entry)
                // The claim keeps its name, and so its token: a reason file written for it is recognised. A name
                // taken here already (tokens of an earlier version were only unique per folder) gets a new token.
                var target = path + "/" + entry
                do throws(SystemCallError) {
                    do throws(SystemCallError) {
                        try FileSystemCalls.renameNoReplace(source, target)
                    } catch  where error.code == EEXIST || error.code == ENOTEMPTY {
                        target = nextPath(for: name)
                        try FileSystemCalls.renameNoReplace(source, target)
                    }
                    adopted.append(FileClaim(name: name, inboxPath: inbox + "/" + name, claimedPath: target))
                } catch  where error.code == ENOENT {
                    // Another recovering watcher won this rename: the file is theirs.
                } catch {
                    failures.append(SystemCallError(error.call, path: source, code: error.code))
                }
            }
            if fd >= 0 {
                FileSystemCalls.removeOwnFile(folder + "/" + ClaimDirectory.lockName)
                close(fd)
            }
            FileSystemCalls.removeEmptyDirectory(folder)
        }
        return (adopted, othersAlive, failures)
    }

    /// On a clean exit: removes the folder if no claim is left in it. A claim still there (a file whose decoding
    /// was cut short) keeps the folder, and the next watcher adopts it once this process has exited.
    func release() {
        let left = ((try? FileSystemCalls.names(in: path)) ?? []).filter { $0 != ClaimDirectory.lockName }
        for name in left where name.hasPrefix(".scratch-") { FileSystemCalls.removeOwnFile(path + "/" + name) }
        guard left.allSatisfy({ $0.hasPrefix(".scratch-") }) else { return }
        FileSystemCalls.removeOwnFile(path + "/" + ClaimDirectory.lockName)
        FileSystemCalls.removeEmptyDirectory(path)
    }

    /// `<token>.<name>`: unique within this folder even when two claims share a name. A name too long to fit
    /// beside the token in a file name is cut short (its extension kept); the claim keeps the full name in memory.
    private func nextPath(for name: String) -> String {
        sequence += 1
        let token = tokenPrefix + ClaimDirectory.hex(UInt32(truncatingIfNeeded: sequence))
        return path + "/" + token + "." + Inbox.fitted(name, limit: Inbox.nameLimit - token.utf8.count - 1)
    }

    /// `0badcafe00000012` from `…/0badcafe00000012.x.png`: the claim's token, unique across watchers, kept when
    /// another watcher takes the claim up.
    static func token(of claimedPath: String) -> String {
        let name = claimedPath.split(separator: "/").last.map(String.init) ?? claimedPath
        return name.firstIndex(of: ".").map { String(name[..<$0]) } ?? name
    }

    /// `x.png` from `0badcafe00000012.x.png` (or from `12.x.png`, the claim names of earlier versions).
    static func originalName(of claimed: String) -> String {
        guard let dot = claimed.firstIndex(of: "."), dot != claimed.startIndex,
            claimed[..<dot].allSatisfy(\.isHexDigit)
        else { return claimed }
        return String(claimed[claimed.index(after: dot)...])
    }

    /// Eight lowercase hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// `host-pid-random`: unique across processes and machines sharing the folder.
    private static func ownerName() -> String {
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let hostName = String(decoding: host.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let safeHost = String(hostName.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }.prefix(64))
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return "\(safeHost.isEmpty ? "host" : safeHost)-\(getpid())-\(random)"
    }
}
