import ProspectStore
import ProspectsCore
import QRDecoding
import SystemCalls

/// What the watcher's shell tells its core: something the kernel, a decoder, the store or a person said, with the
/// facts a decision needs (what `lstat` and the lease probe found) gathered by the shell beforehand.
enum WatchEvent: Sendable {
    /// The shell is running; `watchdogInterval` is how often systemd wants a ping, if at all.
    case started(watchdogInterval: Duration?)
    /// The answer to `.scan`: claims left by dead watchers that this one took over, and the inbox's input names.
    case scanned(InboxScan)
    /// The answer to `.sweep`: claims left by dead watchers that this one took over.
    case swept(Adoption)

    /// inotify: a name appeared in the inbox, with what `lstat` says of it (nil when it is gone already).
    case fileCreated(name: String, entry: EntryInfo?)
    /// inotify: a file was closed after writing, or renamed into the inbox: complete.
    case fileCompleted(name: String)
    /// inotify: a name was deleted or renamed away.
    case fileRemoved(name: String)
    /// inotify or a scan: a name that is not UTF-8, as shown.
    case undecodableName(shown: String)
    /// inotify: the kernel's event queue overflowed; events were lost.
    case eventsOverflowed
    /// inotify: the inbox itself was deleted or moved away.
    case inboxGone
    /// inotify, watching subfolders: a folder was created or moved into a watched one (a path relative to the inbox).
    case folderAppeared(name: String)

    /// The answer to `.inspect`: what the file is now, or nil when nothing is there.
    case inspected(name: String, purpose: InspectionPurpose, facts: FileFacts?)
    /// The answer to `.claim`: the file is this watcher's now.
    case claimed(FileClaim)
    /// The answer to `.claim`: the name was gone (another watcher took it, or its writer removed it).
    case claimLost(name: String)
    /// The answer to `.claim`: the file may not be taken, for a reason of its own (owner, mode).
    case claimRefused(name: String, entry: EntryInfo, error: SystemCallError)

    /// The answer to `.decode`: a decoder has the file's bytes, whose SHA-256 is `contentHash`.
    case decodeStarted(FileClaim, contentHash: String)
    /// A decoder answered; or the file could not be read, or no decoder could take it (`contentHash` nil then).
    case decoded(FileClaim, contentHash: String?, Result<[QRSymbol], ScanError>)
    /// The decoder holding the file died.
    case decoderDied(FileClaim, reason: String)

    /// The answer to `.commit`: the files' outcomes are in the store, one result per file in order, and the totals
    /// since start.
    case committed([FileResult], totals: LoadTotals)
    /// The answer to `.commit`: the store refused the transaction; nothing was committed.
    case commitFailed(StoreError)

    /// SIGINT or SIGTERM: the first finishes the files in hand, a second stops without waiting for decoders.
    case stopSignal
    /// A caller asked to stop (its output is gone): as a first signal; asking again changes nothing.
    case stopRequested
    /// The shell woke up: timers that are due run.
    case timerFired
}

/// What a scan of the inbox found.
struct InboxScan: Sendable {
    var adoption = Adoption()
    /// Input names in the inbox, in listing order.
    var names: [String] = []
    /// Names that are not UTF-8, as shown.
    var undecodable: [String] = []
}

/// Claims of dead watchers taken over, and those that could not be.
struct Adoption: Sendable {
    var claims: [FileClaim] = []
    var failures: [SystemCallError] = []
}

/// What the shell found out about a name in the inbox.
struct FileFacts: Sendable, Hashable {
    var entry: EntryInfo
    /// How long ago, by this machine's wall clock, the kernel stamped the entry's change time (`st_ctim`).
    var sinceChange: Duration
    /// Whether a process has the file open for writing (the lease probe; false when it cannot tell), or nil when
    /// the core did not ask: it asks only about a regular file it would otherwise take.
    var openForWriting: Bool? = nil
    /// Whether the bytes hold a whole picture so far (`ImageCompleteness`), read when the core is about to take a
    /// regular file announced complete; nil otherwise, or when the file cannot be read.
    var completeness: ImageCompleteness? = nil
}

/// Why the core asked about a name; the answer goes back to the same decision.
enum InspectionPurpose: Sendable, Hashable {
    /// About to claim it; `announced` when inotify said it is complete.
    case take(announced: Bool)
    /// It could not be claimed before: has it changed since?
    case unclaimable
    /// It was being written when last heard of: has its close been lost?
    case beingWritten
}
