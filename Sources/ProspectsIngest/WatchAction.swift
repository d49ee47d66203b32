import ProspectStore
import ProspectsCore

/// What the watcher's core asks its shell to do. Actions whose name is a question (`scan`, `sweep`, `inspect`,
/// `claim`, `decode`, `commit`) are answered by an event.
enum WatchAction: Sendable {
    /// Check the inbox is still there, take over dead watchers' claims, list the input names: answer `.scanned`.
    case scan
    /// Check the inbox is still there, take over dead watchers' claims: answer `.swept`.
    case sweep
    /// `lstat` the name, and with `probeWriters` see whether a process holds it open for writing (a lease probe):
    /// answer `.inspected`.
    case inspect(String, InspectionPurpose, probeWriters: Bool = false)
    /// Rename the file into this watcher's claim folder: answer `.claimed`, `.claimLost` or `.claimRefused`.
    case claim(String, entry: EntryInfo)
    /// Read and hash the claimed file, hand it to an idle decoder: answer `.decodeStarted` (then `.decoded` or
    /// `.decoderDied`), or `.decoded` at once when it cannot be read or no decoder takes it.
    case decode(FileClaim)
    /// Kill the decoder that holds the file (it took too long) and start a fresh one; no answer.
    case killDecoder(FileClaim)
    /// Commit the files' outcomes in one transaction: answer `.committed` or `.commitFailed`.
    case commit([DecidedFile])
    /// Move the committed file to the archive and report it.
    case archive(FileClaim, FileResult)
    /// Move the committed file to the quarantine with a reason file, and report it.
    case quarantine(FileClaim, FileResult, reason: ScanError)
    /// Report a file that could not be taken; it stays where it is.
    case reportStuck(WatchedFile)
    /// Tell systemd.
    case notify(SystemdNotice)
    /// Say it on the log (stderr).
    case log(String)
    /// Stop the loop: after a clean stop, or for a failure the watcher cannot go on after.
    case exit(WatchExit)
}

/// A claimed file whose outcome is known and waits for its commit.
struct DecidedFile: Sendable {
    var claim: FileClaim
    var outcome: FileOutcome
}

/// A message for systemd's notification socket.
enum SystemdNotice: Sendable, Hashable {
    case ready, watchdog, stopping
    case status(String)
}

/// Why the loop ends.
enum WatchExit: Sendable {
    /// After a stop signal: every file in hand finished, or left claimed for the next start.
    case stopped
    /// The store failed in a way waiting will not mend; the decided files stay claimed.
    case storeFailed(StoreError)
    /// The inbox was deleted or moved away.
    case inboxGone
}

extension WatchAction: CustomStringConvertible {
    /// One short line naming the action and its file, for tests and debugging.
    var description: String {
        switch self {
        case .scan: "scan"
        case .sweep: "sweep"
        case .inspect(let name, _, let probe): "inspect \(name)" + (probe ? " +writers" : "")
        case .claim(let name, _): "claim \(name)"
        case .decode(let claim): "decode \(claim.name)"
        case .killDecoder(let claim): "kill decoder of \(claim.name)"
        case .commit(let files): "commit " + files.map(\.claim.name).joined(separator: ",")
        case .archive(let claim, _): "archive \(claim.name)"
        case .quarantine(let claim, _, let reason): "quarantine \(claim.name): \(reason.kind)"
        case .reportStuck(let file): "stuck \(file.name) at \(file.stuck?.stage.rawValue ?? "?")"
        case .notify(.ready): "notify READY"
        case .notify(.watchdog): "notify WATCHDOG"
        case .notify(.stopping): "notify STOPPING"
        case .notify(.status(let text)): "notify STATUS \(text)"
        case .log(let line): "log \(line)"
        case .exit(.stopped): "exit stopped"
        case .exit(.storeFailed(let error)): "exit store failed: \(error.message)"
        case .exit(.inboxGone): "exit inbox gone"
        }
    }
}
