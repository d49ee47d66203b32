import SystemCalls

/// A file `watch` could not claim or could not move, for a reason of its own (its name, its owner, its
/// permissions): reported once, left where it is, and not tried again until it changes or the watcher restarts.
/// The other files go on; such a file is never a reason to stop the daemon.
public struct StuckFile: Sendable {
    public enum Stage: String, Sendable {
        /// It could not be taken out of the inbox; nothing was read or committed.
        case claim
        /// Its name is not UTF-8 (see `FileName`), so it cannot even be opened; it stays in the inbox until renamed.
        case name
        /// Its outcome is committed, but it could not be moved to the archive or the quarantine. It stays in this
        /// watcher's claim folder; the next start takes it up again (the ledger keeps it from counting twice).
        case move
    }

    /// The name the file had in the inbox.
    public var name: String
    /// Where the file was dropped.
    public var inboxPath: String
    /// Where the file is now.
    public var path: String
    public var stage: Stage
    public var error: SystemCallError
    /// The committed result, for a file that could not be moved.
    public var result: FileResult?

    public init(
        name: String, inboxPath: String, path: String, stage: Stage, error: SystemCallError,
        result: FileResult? = nil
    ) {
        self.name = name
        self.inboxPath = inboxPath
        self.path = path
        self.stage = stage
        self.error = error
        self.result = result
    }
}
