/// A file this watcher has taken out of the inbox by an atomic rename, and so is the only one to work on.
///
/// Until its outcome is committed and it is moved to the archive or the quarantine, the file sits in the
/// watcher's claim folder; if the watcher dies, another one (or the next start) adopts the claim.
public struct FileClaim: Sendable, Hashable {
    /// The name the file had in the inbox (`x.png`).
    public var name: String
    /// Where the file was dropped: the path reported and recorded as the sightings' source.
    public var inboxPath: String
    /// Where the file is now, inside the claim folder.
    public var claimedPath: String

    public init(name: String, inboxPath: String, claimedPath: String) {
        self.name = name
        self.inboxPath = inboxPath
        self.claimedPath = claimedPath
    }
}
