import SystemCalls

/// One file's end in `watch`, reported once: committed and moved to the archive or the quarantine, or stuck — not
/// claimed or not moved, for a reason of its own (its name, its owner, its permissions), and left where it is. A
/// stuck file is not tried again until it changes or the watcher restarts; it is never a reason to stop the daemon.
public struct WatchedFile: Sendable {
    /// Where a stuck file stopped.
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
    /// Where the file is now: in the archive, in the quarantine beside its reason file, or where it is stuck.
    public var path: String
    /// What loading did; nil for a file that was never claimed.
    public var result: FileResult?
    /// Set for a stuck file: where it stopped, and the system's reason.
    public var stuck: (stage: Stage, error: SystemCallError)?

    /// A file committed and moved to `path`.
    init(claim: FileClaim, result: FileResult, movedTo path: String) {
        name = claim.name
        inboxPath = claim.inboxPath
        self.path = path
        self.result = result
    }

    /// A file left at `path`.
    init(
        name: String, inboxPath: String, stuckAt path: String, stage: Stage, error: SystemCallError,
        result: FileResult? = nil
    ) {
        self.name = name
        self.inboxPath = inboxPath
        self.path = path
        self.result = result
        stuck = (stage, error)
    }
}
