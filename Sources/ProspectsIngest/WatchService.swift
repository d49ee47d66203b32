import Foundation
import Glibc
import ProspectStore
import ProspectsCore
import QRDecoding
import SystemCalls

/// The `watch` daemon: takes every complete file dropped into an inbox, loads its contacts, and moves it to the
/// archive or the quarantine — exactly once, across crashes and concurrent watchers.
///
/// The POSIX shell around `WatchCore`, which makes every decision: one thread runs one `poll` loop over the signal
/// pipe, the inotify descriptor and the decoder workers' pipes, sleeping until one of them has news or the core's
/// next timer is due; it turns what it reads into `WatchEvent`s and performs the core's `WatchAction`s. A file goes:
/// claimed by rename into this watcher's claim folder → read and hashed here → decoded in a worker process → parsed
/// and committed by the same `FileProcessor` / `Loader` code as `ingest` (sightings and ledger entry in one
/// transaction) → moved. A crash at any point leaves the file in the inbox or in a claim folder, and the ledger makes
/// the replay change nothing.
public final class WatchService {
    public struct Options: Sendable {
        public var inbox: String
        /// Default: `INBOX/archive`.
        public var archive: String?
        /// Default: `INBOX/rejected`.
        public var rejected: String?
        /// Scan this often instead of using inotify, for file systems where inotify says nothing (NFS, some mounts).
        public var pollInterval: Duration?
        /// Whether files in subfolders of the inbox (and theirs, as they appear) are taken too.
        public var recursive = false
        /// How many decoder processes run side by side.
        public var workers: Int
        public var pixelLimit: Int
        /// The program and arguments that start one decoder worker (this program in its hidden worker mode).
        public var decoderExecutable: String
        public var decoderArguments: [String]
        /// How long a decoder may take over one file before it is killed and the file quarantined.
        public var decodeTimeout: Duration = .seconds(30)
        /// A file found by a scan rather than announced by inotify is taken only once it has settled: it may still
        /// be being written. Settled means unchanged for this long by the watcher's own clock.
        public var settle: Duration = .milliseconds(500)
        /// How long a file that was being written when inotify lost events (a queue overflow) must stay unchanged
        /// before a scan takes it: its close may have been among the lost events, and its writer may only be
        /// pausing. Much longer than `settle` because the usual proof of completion is missing.
        /// The same wait bounds how long a file being written may go without its close: one that no process has
        /// open for writing (a hard link whose other name was removed before the creation event was read) is taken
        /// in the end. One that a writer still holds, where a lease can tell, waits for its close.
        public var lostEventSettle: Duration = .seconds(30)
        /// How long a stop waits for files in a decoder; after that they stay claimed for the next start.
        public var stopGrace: Duration = .milliseconds(1500)
        /// How often the claim folders are looked at for those of dead watchers (one `readdir` of `.processing`
        /// and a lock test per other watcher), and files that could not be claimed for a change.
        public var sweepInterval: Duration = .seconds(2)
        /// The longest wait between two tries of a commit that found the store unreachable or busy (the waits
        /// double from a second up to this).
        public var storeRetryLimit: Duration = .seconds(30)
        /// The event and collector every file's sightings record.
        public var context = CollectionContext()

        public init(
            inbox: String, archive: String? = nil, rejected: String? = nil, pollInterval: Duration? = nil,
            workers: Int = 2, pixelLimit: Int, decoderExecutable: String, decoderArguments: [String]
        ) {
            self.inbox = inbox
            self.archive = archive
            self.rejected = rejected
            self.pollInterval = pollInterval
            self.workers = workers
            self.pixelLimit = pixelLimit
            self.decoderExecutable = decoderExecutable
            self.decoderArguments = decoderArguments
        }
    }

    private let options: Options
    private let inbox: Inbox
    private let claims: ClaimDirectory
    private let watcher: InboxWatcher?
    private let supervisor: DecoderSupervisor
    private let loader: Loader
    private let notifier: SystemdNotifier
    private let log: (String) -> Void
    private var core: WatchCore
    /// Events waiting for the core, oldest first: an action's answer joins the end.
    private var events: [WatchEvent] = []
    /// Subfolders the kernel would not watch, already said in the log.
    private var unwatchable: Set<String> = []

    /// Checks the folders, opens the store, creates this watcher's claim folder, starts watching and starts the
    /// decoders; nothing is claimed yet. Throws `WatchError` for a setup that cannot work, before `openStore` runs
    /// (so a refused start creates no store), or what `openStore` throws.
    public init(
        options: Options, openStore: () throws -> any ProspectStore, notifier: SystemdNotifier,
        log: @escaping (String) -> Void
    ) throws {
        self.options = options
        self.notifier = notifier
        self.log = log
        inbox = try Inbox(path: options.inbox, archive: options.archive, rejected: options.rejected)
        let store = try openStore()
        claims = try ClaimDirectory(root: inbox.claimsRoot)
        if options.pollInterval == nil {
            do {
                // Watching starts before the first scan, so a file dropped in between is announced, not missed.
                watcher = try InboxWatcher(path: inbox.path)
            } catch {
                throw WatchError.system(error)
            }
        } else {
            watcher = nil
        }
        // The subfolders there now, watched before the first scan as the inbox is (one the kernel refuses is said by
        // that scan); those that come later are watched by the scan their arrival causes.
        if options.recursive, let watcher {
            for folder in try inbox.waitingNames(recursive: true).folders { try? watcher.watch(folder: folder) }
        }
        supervisor = try DecoderSupervisor(
            executable: options.decoderExecutable, arguments: options.decoderArguments, count: options.workers)
        // Every file commits on its own, or with whatever else is decided at the same moment.
        loader = Loader(store: store, batchSize: Int.max, context: options.context)
        core = WatchCore(
            configuration: WatchCore.Configuration(
                inbox: inbox.path, inotify: watcher != nil, pollInterval: options.pollInterval,
                workers: options.workers, decodeTimeout: options.decodeTimeout, settle: options.settle,
                lostEventSettle: options.lostEventSettle, stopGrace: options.stopGrace,
                sweepInterval: options.sweepInterval, storeRetryLimit: options.storeRetryLimit))
    }

    /// The totals since start.
    public var totals: LoadTotals { loader.totals }

    /// Runs until SIGINT or SIGTERM, reporting each file once: when its outcome is committed and it has been moved,
    /// or when it could not be claimed or moved (`stuck`). Returns after a clean stop; throws for the store
    /// (`StoreError`) or the inbox (`WatchError`).
    public func run(report: (WatchedFile) throws -> Void) throws {
        signal(SIGPIPE, SIG_IGN)  // a dead decoder's pipe is reported by write(), not by a signal
        // A writer opening a file during the instant `isOpenForWriting` holds its lease breaks the lease, and the
        // kernel tells the holder with SIGIO, whose default action would end the watcher.
        signal(SIGIO, SIG_IGN)
        let signals: SignalPipe
        do { signals = try SignalPipe() } catch { throw WatchError.system(error) }
        defer {
            supervisor.shutdown()
            claims.release()
        }
        events.append(.started(watchdogInterval: notifier.watchdogInterval))
        while try drain(report) {
            let readable = try wait(signals: signals)
            if readable.contains(signals.descriptor), signals.drain() > 0 { events.append(.stopSignal) }
            for finished in try supervisor.collect(readable: readable) {
                switch finished.ending {
                case .reply(let decoded):
                    events.append(.decoded(finished.job.claim, contentHash: finished.job.contentHash, decoded))
                case .died(let reason):
                    events.append(.decoderDied(finished.job.claim, reason: reason))
                }
            }
            if let watcher, readable.contains(watcher.descriptor) { try readEvents(from: watcher) }
            events.append(.timerFired)
        }
    }

    /// Stops as the first SIGTERM does: nothing more is claimed, the files in hand are finished, and `run` returns
    /// (files still in a decoder after the stop grace stay claimed for the next start). For a caller whose
    /// `report` cannot go on (its output is gone); called from within `run`, on its thread. A second call changes
    /// nothing.
    public func stop() {
        events.append(.stopRequested)
    }

    // MARK: Events in, actions out

    /// Hands every waiting event to the core and performs its actions; false once the core has said to exit.
    private func drain(_ report: (WatchedFile) throws -> Void) throws -> Bool {
        while !events.isEmpty {
            let event = events.removeFirst()
            for action in core.handle(event, now: .now) {
                if case .exit(let reason) = action {
                    switch reason {
                    case .stopped: return false
                    case .storeFailed(let error): throw error
                    case .inboxGone: throw WatchError.inboxGone(path: inbox.path)
                    }
                }
                try perform(action, report)
            }
        }
        return true
    }

    private func perform(_ action: WatchAction, _ report: (WatchedFile) throws -> Void) throws {
        switch action {
        case .scan:
            try inbox.checkStillThere()
            let adoption = adoptAbandoned()
            let (names, undecodable, folders) = try inbox.waitingNames(recursive: options.recursive)
            // A folder that appeared since the last scan: watched from now on, its files found by this scan.
            for folder in folders { watch(folder) }
            events.append(.scanned(InboxScan(adoption: adoption, names: names, undecodable: undecodable)))
        case .sweep:
            try inbox.checkStillThere()
            events.append(.swept(adoptAbandoned()))
        case .inspect(let name, let purpose, let probeWriters):
            // Whether the picture is whole matters only to a file announced complete: any other waits to settle.
            let readsContent = purpose == .take(announced: true)
            events.append(
                .inspected(
                    name: name, purpose: purpose,
                    facts: facts(name, probeWriters: probeWriters, readsContent: readsContent)))
        case .claim(let name, let entry):
            do throws(SystemCallError) {
                if let claim = try claims.claim(name: name, inbox: inbox.path) {
                    events.append(.claimed(claim))
                } else {
                    events.append(.claimLost(name: name))
                }
            } catch  where error.concernsOneFile {
                events.append(.claimRefused(name: name, entry: entry, error: error))
            } catch {
                throw WatchError.system(error)
            }
        case .decode(let claim): try decode(claim)
        case .killDecoder(let claim): try supervisor.kill(claim)
        case .commit(let files): try commit(files)
        case .archive(let claim, let result), .quarantine(let claim, let result, _):
            try finish(claim, result, report)
        case .reportStuck(let file): try report(file)
        case .notify(.ready): notifier.ready()
        case .notify(.watchdog): notifier.watchdog()
        case .notify(.stopping): notifier.stopping()
        case .notify(.status(let text)): notifier.status(text)
        case .log(let line): log(line)
        case .exit: break
        }
    }

    /// What `lstat` says of the name now, how long ago its change time was by the wall clock, when asked whether
    /// a writer holds it (not for anything but a regular file; a file of another owner without CAP_LEASE counts as
    /// not held), and with `readsContent` whether a non-empty regular file holds a whole picture so far.
    private func facts(_ name: String, probeWriters: Bool, readsContent: Bool = false) -> FileFacts? {
        let path = inbox.path + "/" + name
        guard let entry = try? FileSystemCalls.entry(path) else { return nil }
        let sinceChange = Duration.milliseconds(Int64((Date().timeIntervalSince1970 - entry.changed) * 1000))
        let open = probeWriters ? entry.kind == .regular && FileSystemCalls.isOpenForWriting(path) == true : nil
        var completeness: ImageCompleteness?
        if readsContent && entry.kind == .regular && entry.size > 0 {
            // Never follows a link, never blocks; a file it cannot read is judged by the decoder's turn.
            completeness = (try? InputFile.read(path, followSymlinks: false)).map(ImageCompleteness.of)
        }
        return FileFacts(entry: entry, sinceChange: sinceChange, openForWriting: open, completeness: completeness)
    }

    /// Watches a subfolder; one the kernel refuses (too many watches) is said once in the log: its files are found
    /// by the scans a new folder or a lost event causes, and at the next start.
    private func watch(_ folder: String) {
        do throws(SystemCallError) {
            try watcher?.watch(folder: folder)
        } catch {
            if unwatchable.insert(folder).inserted { log("cannot watch \(SafeText.escaped(folder)): \(error.message)") }
        }
    }

    private func adoptAbandoned() -> Adoption {
        let (found, _, failures) = claims.adoptAbandoned(inbox: inbox.path)
        return Adoption(claims: found, failures: failures)
    }

    /// Reads and hashes a claimed file here, then hands its bytes to a decoder.
    private func decode(_ claim: FileClaim) throws {
        let bytes: [UInt8]
        do {
            // Never follows a link, never blocks on a FIFO, refuses anything but a regular file.
            bytes = try InputFile.read(claim.claimedPath, followSymlinks: false)
        } catch {
            events.append(.decoded(claim, contentHash: nil, .failure(error)))
            return
        }
        let job = DecoderSupervisor.Job(claim: claim, contentHash: ContentHash.sha256(bytes))
        if let failed = try supervisor.submit(job, png: bytes), case .reply(let decoded) = failed.ending {
            events.append(.decoded(claim, contentHash: job.contentHash, decoded))
        } else {
            events.append(.decodeStarted(claim, contentHash: job.contentHash))
        }
    }

    /// Commits the files in one transaction. A store error before any file is committed goes to the core, which
    /// waits it out or stops; anything else stops the watcher.
    private func commit(_ files: [DecidedFile]) throws {
        var results: [FileResult] = []
        do {
            for file in files { try loader.add(file.outcome) { _ in } }
            try loader.flush { results.append($0) }
        } catch let error as StoreError where results.isEmpty {
            events.append(.commitFailed(error))
            return
        }
        events.append(.committed(results, totals: loader.totals))
    }

    /// Moves one committed file to the archive or the quarantine and reports it.
    private func finish(_ claim: FileClaim, _ result: FileResult, _ report: (WatchedFile) throws -> Void) throws {
        let destination: String
        do throws(SystemCallError) {
            destination = try move(claim, result)
        } catch  where error.concernsOneFile {
            // The outcome is committed; the file stays claimed and the next start files it as a duplicate.
            try report(
                WatchedFile(
                    name: claim.name, inboxPath: claim.inboxPath, stuckAt: claim.claimedPath, stage: .move,
                    error: error, result: result))
            return
        } catch {
            throw WatchError.system(error)
        }
        try report(WatchedFile(claim: claim, result: result, movedTo: destination))
    }

    private func move(_ claim: FileClaim, _ result: FileResult) throws(SystemCallError) -> String {
        let folder = result.outcome == .rejected ? inbox.rejected : inbox.archive
        if let remade = try inbox.remakeIfGone(folder) { log("\(remade) was gone; made it again") }
        guard result.outcome == .rejected else { return try inbox.archive(claim) }
        let reason = QuarantineReason(
            file: claim.name, error: result.file.rejection ?? .noCodeFound, time: Date(),
            contentHash: result.file.contentHash, inode: try FileSystemCalls.entry(claim.claimedPath)?.inode ?? 0,
            claim: ClaimDirectory.token(of: claim.claimedPath))
        return try inbox.reject(claim, reason: reason, scratch: claims.scratchPath("reason"))
    }

    // MARK: Waiting

    /// Sleeps in `poll` until a descriptor is readable or the core's next timer is due; returns the readable ones.
    private func wait(signals: SignalPipe) throws -> Set<Int32> {
        var descriptors = [signals.descriptor] + supervisor.descriptors
        if let watcher, !core.isStopping { descriptors.append(watcher.descriptor) }
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        // Nothing due: sleep until something happens. Otherwise wake at the next deadline, rounded up to a millisecond.
        let timeout = core.nextDeadline.map { next in
            let (seconds, attoseconds) = max(.zero, next - .now).components
            return Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
        }
        do {
            _ = try valueOrErrno("poll") { poll(&fds, nfds_t(fds.count), timeout ?? -1) }
        } catch {
            throw WatchError.system(error)
        }
        return Set(fds.filter { $0.revents != 0 }.map(\.fd))
    }

    /// Turns what inotify says into events; a created input name is looked at at once (`lstat`).
    private func readEvents(from watcher: InboxWatcher) throws {
        let read: [InboxWatcher.Event]
        do { read = try watcher.readEvents() } catch { throw WatchError.system(error) }
        for event in read {
            switch event {
            case .completed(let name): events.append(.fileCompleted(name: name))
            case .created(let name):
                guard Inbox.isInputName(name) else { continue }
                events.append(.fileCreated(name: name, entry: try? FileSystemCalls.entry(inbox.path + "/" + name)))
            case .removed(let name): events.append(.fileRemoved(name: name))
            case .undecodable(let shown): events.append(.undecodableName(shown: shown))
            case .folderCreated(let name):
                if options.recursive { events.append(.folderAppeared(name: name)) }
            case .watchEnded: break
            case .overflow: events.append(.eventsOverflowed)
            case .folderGone: events.append(.inboxGone)
            }
        }
    }
}
