import Foundation
import Glibc
import ProspectStore
import ProspectsCore
import SystemCalls

/// The `watch` daemon: takes every complete file dropped into an inbox, loads its contacts, and moves it to the
/// archive or the quarantine — exactly once, across crashes and concurrent watchers.
///
/// One thread runs one `poll` loop over the signal pipe, the inotify descriptor and the decoder workers' pipes; it
/// sleeps in the kernel until one of them has news (or a timer is due: the systemd watchdog, a `--poll` scan, a
/// settle re-check). A file goes: claimed by rename into this watcher's claim folder → read and hashed here →
/// decoded in a worker process → parsed and committed by the same `FileProcessor` / `Loader` code as `ingest`
/// (sightings and ledger entry in one transaction) → moved. A crash at any point leaves the file in the inbox or
/// in a claim folder, and the ledger makes the replay change nothing.
public final class WatchService {
    public struct Options: Sendable {
        public var inbox: String
        /// Default: `INBOX/archive`.
        public var archive: String?
        /// Default: `INBOX/rejected`.
        public var rejected: String?
        /// Scan this often instead of using inotify, for file systems where inotify says nothing (NFS, some mounts).
        public var pollInterval: Duration?
        /// How many decoder processes run side by side.
        public var workers: Int
        public var pixelLimit: Int
        /// The program and arguments that start one decoder worker (this program in its hidden worker mode).
        public var decoderExecutable: String
        public var decoderArguments: [String]
        /// How long a decoder may take over one file before it is killed and the file quarantined.
        public var decodeTimeout: Duration = .seconds(30)
        /// A file found by a scan rather than announced by inotify is taken only once it has settled: it may still
        /// be being written. Settled means unchanged for this long by the watcher's own clock (see `isSettled`).
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

    /// A claimed file whose outcome is known and waits for its commit.
    private struct Decided {
        var claim: FileClaim
        var outcome: FileOutcome
    }

    private let options: Options
    private let inbox: Inbox
    private let claims: ClaimDirectory
    private let watcher: InboxWatcher?
    private let supervisor: DecoderSupervisor
    private let loader: Loader
    private let notifier: SystemdNotifier
    private let log: (String) -> Void

    /// Names waiting to be claimed, in arrival order; the flag says inotify announced them as complete.
    private var queue: [String] = []
    private var queued: [String: Bool] = [:]
    private var adopted: [FileClaim] = []
    private var decided: [Decided] = []
    /// Files that could not be claimed or moved, waiting to be reported.
    private var stuck: [StuckFile] = []
    /// Names that could not be claimed, with what they were then: not tried again while they stay the same.
    private var unclaimable: [String: EntryInfo] = [:]
    /// Claims left by dead watchers that could not be taken up, already reported.
    private var unadoptable: Set<String> = []
    /// Names that are not UTF-8 (as shown), already reported: such a file cannot be opened until it is renamed.
    private var undecodable: Set<String> = []
    /// Names of regular files inotify saw created (`IN_CREATE`) and not yet closed after writing nor renamed in:
    /// their writer may pause for any time mid-file, so no scan takes them; their `IN_CLOSE_WRITE` queues them.
    /// A name leaves when it is completed, deleted or renamed away, or is no longer there at a scan. The inode is
    /// kept for a file written unnamed (`O_TMPFILE`) and linked in: its close is announced as `#<inode>`.
    private var beingWritten: [String: UInt64] = [:]
    /// Names that were in `beingWritten` when the kernel's event queue overflowed: their close may have been lost,
    /// so a scan takes them once they have stayed unchanged for `lostEventSettle` (or their close comes after all).
    private var lostEvents: Set<String> = []
    /// Names unchanged for `lostEventSettle` and still open for writing, already said in the log.
    private var saidStillOpen: Set<String> = []
    /// Files found by a scan and not settled yet: what `lstat` said, and since when it has said the same.
    private var observed: [String: (entry: EntryInfo, since: ContinuousClock.Instant)] = [:]
    private var rescanAt: ContinuousClock.Instant?
    private var sweepAt: ContinuousClock.Instant?
    private var watchdogAt: ContinuousClock.Instant?
    private var stopDeadline: ContinuousClock.Instant?
    private var lastStatus = ContinuousClock.now
    /// While the store is unreachable or busy: when to try the decided files' commit again, and the wait after
    /// that. No new file is taken meanwhile: they wait in the inbox, the decided ones in their claims.
    private var storeRetryAt: ContinuousClock.Instant?
    private var storeRetryWait: Duration = .seconds(1)

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
        supervisor = try DecoderSupervisor(
            executable: options.decoderExecutable, arguments: options.decoderArguments, count: options.workers,
            timeout: options.decodeTimeout, log: log)
        // Every file commits on its own, or with whatever else is decided at the same moment.
        loader = Loader(store: store, batchSize: Int.max, context: options.context)
    }

    /// The totals since start.
    public var totals: LoadTotals { loader.totals }

    /// Runs until SIGINT or SIGTERM, reporting each file once its outcome is committed and it has been moved, and
    /// each file that could not be claimed or moved (`stuck`) once. Returns after a clean stop; throws for the store
    /// (`StoreError`) or the inbox (`WatchError`).
    public func run(report: (WatchedFile) throws -> Void, stuck reportStuck: (StuckFile) throws -> Void) throws {
        signal(SIGPIPE, SIG_IGN)  // a dead decoder's pipe is reported by write(), not by a signal
        // A writer opening a file during the instant `isOpenForWriting` holds its lease breaks the lease, and the
        // kernel tells the holder with SIGIO, whose default action would end the watcher.
        signal(SIGIO, SIG_IGN)
        let signals: SignalPipe
        do { signals = try SignalPipe() } catch { throw WatchError.system(error) }

        try scan()
        notifier.ready()
        notifier.status("watching \(inbox.path)")
        if let interval = notifier.watchdogInterval {
            notifier.watchdog()
            watchdogAt = .now + interval
        }
        if let interval = options.pollInterval { rescanAt = .now + interval }

        while true {
            if stopDeadline == nil && storeRetryAt == nil { try dispatch() }
            if !decided.isEmpty && storeRetryAt.map({ ContinuousClock.now >= $0 }) ?? true {
                try commit(report: report)
            }
            for file in stuck { try reportStuck(file) }
            stuck.removeAll()
            if let stopDeadline, supervisor.busyCount == 0 || ContinuousClock.now >= stopDeadline { break }

            let readable = try wait(signals: signals)
            if readable.contains(signals.descriptor), signals.drain() > 0 { requestStop() }
            let finished = try supervisor.collect(readable: readable) + supervisor.expire()
            decided += finished.map(decide)
            if let watcher, readable.contains(watcher.descriptor) { try handleEvents(from: watcher) }
            try runDueTimers()
        }

        let abandoned = supervisor.busyCount + adopted.count + decided.count
        supervisor.shutdown()
        if abandoned > 0 { log("stopped with \(abandoned) file(s) still claimed; the next start takes them up") }
        claims.release()
    }

    // MARK: Finding and claiming files

    /// Adopts dead watchers' claims, then queues every input name in the inbox.
    private func scan() throws {
        try inbox.checkStillThere()
        adoptAbandoned()
        let (names, undecodableNames) = try inbox.waitingNames()
        for name in names { enqueue(name, announced: false) }
        let present = Set(names)
        observed = observed.filter { present.contains($0.key) }
        // A name gone since (its removal event read or lost) has nothing left to wait for.
        beingWritten = beingWritten.filter { present.contains($0.key) }
        lostEvents.formIntersection(present)
        for shown in undecodableNames { reportUndecodable(shown) }
        undecodable.formIntersection(undecodableNames)
    }

    /// A file whose name is not UTF-8 is left in the inbox and reported once (again if it comes back).
    private func reportUndecodable(_ shown: String) {
        guard undecodable.insert(shown).inserted else { return }
        let path = inbox.path + "/" + shown
        let error = SystemCallError("readdir", path: path, code: EILSEQ)
        stuck.append(StuckFile(name: shown, inboxPath: path, path: path, stage: .name, error: error))
    }

    private func adoptAbandoned() {
        let (found, _, failures) = claims.adoptAbandoned(inbox: inbox.path)
        if !found.isEmpty { log("took up \(found.count) file(s) left claimed by a watcher that stopped") }
        adopted += found
        for failure in failures where unadoptable.insert(failure.path).inserted {
            log("cannot take up a file left claimed by a watcher that stopped: \(failure.message); it stays there")
        }
        // Any watcher may die holding claims, one that starts after this one included: look again now and then.
        sweepAt = .now + options.sweepInterval
    }

    private func enqueue(_ name: String, announced: Bool) {
        if let known = queued[name] {
            if announced && !known { queued[name] = true }
            return
        }
        queued[name] = announced
        queue.append(name)
    }

    /// Claims files and starts them while a decoder is free.
    private func dispatch() throws {
        var index = 0
        defer { queue.removeFirst(index) }
        while supervisor.hasIdleWorker {
            if let claim = adopted.popLast() {
                try start(claim)
                continue
            }
            guard index < queue.count else { return }
            let name = queue[index]
            index += 1
            let announced = queued.removeValue(forKey: name) ?? false
            // Created while watched and not closed yet: its `IN_CLOSE_WRITE` will queue it again. Announced or
            // not, the creation is the latest news about this name (an earlier file under it may have been
            // announced, then replaced).
            if beingWritten[name] != nil { continue }
            guard let entry = try? FileSystemCalls.entry(inbox.path + "/" + name) else { continue }
            if let refused = unclaimable[name] {
                if refused == entry { continue }
                unclaimable[name] = nil
            }
            // A file found by a scan may still be being written: inotify will announce it when closed, or a re-scan
            // will find it settled. An empty file may be a `touch` before the real write, even when announced; it
            // is taken (and quarantined) only once it has stayed empty for the settle time.
            let settle = lostEvents.contains(name) ? options.lostEventSettle : options.settle
            if entry.kind == .regular && (!announced || entry.size == 0) && !isSettled(name, entry, for: settle) {
                scheduleRescan(after: options.settle)
                continue
            }
            // Settled to look at, but a writer still has it open (an upload that spans a restart of this watcher,
            // or one whose close was among the events lost in an overflow): not finished. Its close will be
            // announced; without inotify, a later scan looks again, soon at first, then at the poll interval.
            // Taken, it was quarantined half-written.
            if entry.kind == .regular && !announced && stillOpenForWriting(name, entry) {
                lostEvents.remove(name)
                if watcher != nil {
                    beingWritten[name] = entry.inode
                } else if !isSettled(name, entry, for: options.lostEventSettle) {
                    scheduleRescan(after: options.settle)
                }
                continue
            }
            observed[name] = nil
            lostEvents.remove(name)
            let claim: FileClaim?
            do {
                claim = try claims.claim(name: name, inbox: inbox.path)
            } catch  where error.concernsOneFile {
                // Left in the inbox and remembered as it is now, so that neither a rescan nor an event makes a hot
                // loop of it; it is tried again once it changes (an owner or mode fixed, new content).
                unclaimable[name] = entry
                let path = inbox.path + "/" + name
                stuck.append(StuckFile(name: name, inboxPath: path, path: path, stage: .claim, error: error))
                continue
            } catch {
                throw WatchError.system(error)
            }
            if let claim { try start(claim) }
        }
    }

    /// Reads and hashes a claimed file here, then hands its bytes to a decoder.
    private func start(_ claim: FileClaim) throws {
        let bytes: [UInt8]
        do {
            // Never follows a link, never blocks on a FIFO, refuses anything but a regular file.
            bytes = try InputFile.read(claim.claimedPath, followSymlinks: false)
        } catch {
            decided.append(
                Decided(
                    claim: claim,
                    outcome: FileOutcome(path: claim.inboxPath, contentHash: nil, codes: [], fileError: error)))
            return
        }
        let job = DecoderSupervisor.Job(claim: claim, contentHash: ContentHash.sha256(bytes))
        if let failed = try supervisor.submit(job, png: bytes) { decided.append(decide(failed)) }
    }

    private func decide(_ finished: DecoderSupervisor.Finished) -> Decided {
        let claim = finished.job.claim
        let outcome = FileProcessor.outcome(
            path: claim.inboxPath, contentHash: finished.job.contentHash, decoded: finished.decoded)
        return Decided(claim: claim, outcome: outcome)
    }

    /// True once `lstat` has said the same about the file (inode, size, times) for `settle` by this watcher's
    /// monotonic clock: a writer's clock, skewed or a year ahead (NFS, SMB), can neither make a file look finished
    /// nor keep it waiting for ever. With inotify the folder is local, and the kernel stamps the change time
    /// (`st_ctim`, which no writer can set) with this machine's clock: `settle` ago also means settled. Only for
    /// files whose writing the watcher did not see begin (see `beingWritten`): a writer may pause for longer.
    private func isSettled(_ name: String, _ entry: EntryInfo, for settle: Duration) -> Bool {
        let now = ContinuousClock.now
        if let seen = observed[name], seen.entry == entry {
            if now - seen.since >= settle { return true }
        } else {
            observed[name] = (entry, now)
        }
        guard watcher != nil else { return false }
        let seconds = Double(settle.components.seconds) + Double(settle.components.attoseconds) / 1e18
        return Date().timeIntervalSince1970 - entry.changed >= seconds
    }

    // MARK: Committing and moving

    /// Commits every decided file in one transaction, then moves each and reports it. A store that cannot be
    /// reached or stays busy (a PostgreSQL restart, another process's long transaction) is waited out: the files
    /// stay decided and claimed, and the commit is tried again later. Running it again counts nothing twice: the
    /// transaction either committed nothing, or (a COMMIT whose answer was lost) entered every file's content in
    /// the ledger, where the next try finds it.
    private func commit(report: (WatchedFile) throws -> Void) throws {
        let batch = decided
        decided.removeAll()
        var index = 0
        do {
            for item in batch { try loader.add(item.outcome) { _ in } }
            try loader.flush { result in
                if index == 0 { storeIsBack(batch.count) }
                try finish(batch[index].claim, result, report: report)
                index += 1
            }
        } catch let error as StoreError where index == 0 && error.isWorthWaitingFor {
            decided = batch + decided
            storeRetryAt = .now + storeRetryWait
            log("\(error.message); trying again in \(storeRetryWait), new files wait in the inbox")
            storeRetryWait = min(storeRetryWait * 2, options.storeRetryLimit)
            return
        }
        if ContinuousClock.now - lastStatus >= .seconds(1) {
            lastStatus = .now
            let totals = loader.totals
            notifier.status(
                "watching \(inbox.path): \(totals.files) files, \(totals.inserted) inserted, "
                    + "\(totals.duplicates) duplicates, \(totals.rejected) rejected")
        }
    }

    /// Said once the commit that waited went through, before its files are reported.
    private func storeIsBack(_ files: Int) {
        guard storeRetryAt != nil else { return }
        log("the store is back; committed the \(files) file(s) that waited")
        storeRetryAt = nil
        storeRetryWait = .seconds(1)
    }

    /// Moves one committed file and reports it.
    private func finish(_ claim: FileClaim, _ result: FileResult, report: (WatchedFile) throws -> Void) throws {
        let destination: String
        do throws(SystemCallError) {
            destination = try move(claim, result)
        } catch  where error.concernsOneFile {
            // The outcome is committed; the file stays claimed and the next start files it as a duplicate.
            stuck.append(
                StuckFile(
                    name: claim.name, inboxPath: claim.inboxPath, path: claim.claimedPath, stage: .move,
                    error: error, result: result))
            return
        } catch {
            throw WatchError.system(error)
        }
        try report(WatchedFile(result: result, name: claim.name, destination: destination))
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

    /// Sleeps in `poll` until a descriptor is readable or the next timer is due; returns the readable ones.
    private func wait(signals: SignalPipe) throws -> Set<Int32> {
        var descriptors = [signals.descriptor] + supervisor.descriptors
        if let watcher, stopDeadline == nil { descriptors.append(watcher.descriptor) }
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let sweep = stopDeadline == nil ? sweepAt : nil
        let deadlines = [rescanAt, sweep, watchdogAt, stopDeadline, supervisor.nextDeadline, storeRetryAt].compactMap {
            $0
        }
        // Nothing due: sleep until something happens. Otherwise wake at the next deadline, rounded up to a millisecond.
        let timeout = deadlines.min().map { next in
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

    private func handleEvents(from watcher: InboxWatcher) throws {
        let events: [InboxWatcher.Event]
        do { events = try watcher.readEvents() } catch { throw WatchError.system(error) }
        var overflowed = false
        for event in events {
            switch event {
            case .completed(let name):
                if Inbox.isInputName(name) {
                    completed(name)
                } else if let inode = Self.unnamedFileInode(name) {
                    for (written, writtenInode) in beingWritten where writtenInode == inode { completed(written) }
                }
            case .created(let name):
                // A new regular file is being written: its close will announce it, and until then no scan may take
                // it, however long its writer pauses. Anything else (a link, a FIFO, a folder) or a hard link of a
                // finished file will never be closed after writing: look at it now.
                guard Inbox.isInputName(name), let entry = try? FileSystemCalls.entry(inbox.path + "/" + name)
                else { continue }
                lostEvents.remove(name)
                if entry.kind == .regular && entry.links == 1 {
                    beingWritten[name] = entry.inode
                } else {
                    beingWritten[name] = nil
                    enqueue(name, announced: true)
                }
            case .removed(let name):
                beingWritten[name] = nil
                lostEvents.remove(name)
            case .undecodable(let shown):
                if Inbox.isInputName(shown) { reportUndecodable(shown) }
            case .overflow:
                // The closes of files being written may be among the lost events: they fall back to a long settle.
                lostEvents.formUnion(beingWritten.keys)
                beingWritten.removeAll()
                overflowed = true
            case .folderGone:
                throw WatchError.inboxGone(path: inbox.path)
            }
        }
        if overflowed {
            log("the kernel's event queue overflowed; rescanning the inbox")
            try scan()
        }
    }

    /// A file closed after writing: it is complete, queue it.
    private func completed(_ name: String) {
        beingWritten[name] = nil
        lostEvents.remove(name)
        enqueue(name, announced: true)
    }

    /// The inode in the name `#<inode>` the kernel gives a file opened with `O_TMPFILE`; its close is announced
    /// under that name even after `linkat` gave it a real one (whose `IN_CREATE` was seen with one link).
    static func unnamedFileInode(_ name: String) -> UInt64? {
        guard name.first == "#" else { return nil }
        return UInt64(name.dropFirst())
    }

    private func runDueTimers() throws {
        let now = ContinuousClock.now
        if let at = rescanAt, now >= at {
            rescanAt = options.pollInterval.map { now + $0 }
            try scan()
        }
        // Not while stopping: a claim taken up then would only be left for the next start.
        if let at = sweepAt, now >= at, stopDeadline == nil {
            try inbox.checkStillThere()
            adoptAbandoned()
            recheckUnclaimable()
            recheckBeingWritten()
        }
        if let at = watchdogAt, now >= at, let interval = notifier.watchdogInterval {
            notifier.watchdog()
            watchdogAt = now + interval
        }
    }

    /// A file still waiting for its close after staying unchanged for `lostEventSettle` is taken as if its close
    /// had been lost: no name waits for ever on an event that may never come. One `lstat` each.
    private func recheckBeingWritten() {
        saidStillOpen.formIntersection(beingWritten.keys)
        for name in beingWritten.keys {
            guard let entry = try? FileSystemCalls.entry(inbox.path + "/" + name) else { continue }
            guard isSettled(name, entry, for: options.lostEventSettle) else { continue }
            // A stalled upload: taken now, it would be quarantined half-written, and its writer would go on writing
            // into the quarantined file. Its close will be announced.
            if stillOpenForWriting(name, entry) { continue }
            beingWritten[name] = nil
            lostEvents.insert(name)
            enqueue(name, announced: false)
        }
    }

    /// Whether a process still has the file open for writing (nil from the lease probe, a file of another owner
    /// without CAP_LEASE, counts as no). Said once in the log when that has lasted `lostEventSettle`, so that a
    /// writer that never closes its file does not keep it waiting unseen.
    private func stillOpenForWriting(_ name: String, _ entry: EntryInfo) -> Bool {
        guard FileSystemCalls.isOpenForWriting(inbox.path + "/" + name) == true else { return false }
        if isSettled(name, entry, for: options.lostEventSettle), saidStillOpen.insert(name).inserted {
            log(
                "\(SafeText.escaped(name)): unchanged for \(options.lostEventSettle) and still open for writing; "
                    + "taken once its writer closes it")
        }
        return true
    }

    /// Queues again every file that could not be claimed and has changed since (inotify says nothing about a new
    /// owner or mode); forgets those that are gone. One `lstat` each.
    private func recheckUnclaimable() {
        for (name, then) in unclaimable {
            let now = try? FileSystemCalls.entry(inbox.path + "/" + name)
            guard now != then else { continue }
            unclaimable[name] = nil
            if now != nil { enqueue(name, announced: false) }
        }
    }

    private func scheduleRescan(after delay: Duration) {
        let at = ContinuousClock.now + delay
        if rescanAt.map({ at < $0 }) ?? true { rescanAt = at }
    }

    /// Stops as the first SIGTERM does: nothing more is claimed, the files in hand are finished, and `run` returns
    /// (files still in a decoder after the stop grace stay claimed for the next start). For a caller whose
    /// `report` cannot go on (its output is gone); called from within `run`, on its thread. A second call changes
    /// nothing.
    public func stop() {
        if stopDeadline == nil { requestStop() }
    }

    /// The first signal finishes the files in hand; a second one stops without waiting for decoders.
    private func requestStop() {
        if stopDeadline == nil {
            stopDeadline = .now + options.stopGrace
            notifier.stopping()
            log("stopping: finishing the files in hand")
        } else {
            stopDeadline = .now
        }
    }
}
