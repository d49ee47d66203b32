import Glibc
import ProspectStore
import ProspectsCore
import QRDecoding
import SystemCalls

/// The watcher's decisions, with no I/O and no clock of its own: `handle(_:now:)` takes one event and the time and
/// returns what to do. `WatchService` is the shell that turns the kernel's news into events and performs actions.
///
/// A file goes: found (inotify or a scan) → inspected → claimed → decoding → decided → committed → archived or
/// quarantined. A file found by a scan rather than announced complete, or announced but holding only the beginning
/// of a picture (a writer that appends in pieces), must settle first (stay unchanged for `settle` by this clock);
/// one whose writer was seen to start and whose close went missing waits for `lostEventSettle`, and longer while a
/// writer still holds it. A store that fails in a way worth waiting for is tried again after 1 s, 2 s, 4 s… up to
/// `storeRetryLimit`, while new files wait in the inbox.
struct WatchCore {
    struct Configuration: Sendable {
        /// The inbox path, as the log and the stuck-file reports show it.
        var inbox: String
        /// Whether inotify watches the inbox (false: `--poll`).
        var inotify: Bool
        var pollInterval: Duration?
        var workers: Int
        var decodeTimeout: Duration
        var settle: Duration
        var lostEventSettle: Duration
        var stopGrace: Duration
        var sweepInterval: Duration
        var storeRetryLimit: Duration
    }

    let configuration: Configuration

    private var started = false
    /// Names waiting to be claimed, in arrival order; the flag says inotify announced them as complete.
    private var queue: [String] = []
    private var queued: [String: Bool] = [:]
    /// Claims taken over from dead watchers, waiting for a decoder.
    private var adopted: [FileClaim] = []
    /// The name whose inspection or claim is awaited; nothing else is taken meanwhile.
    private var taking: String?
    /// Files in a decoder: since when, and their content hash once known.
    private var decoding: [FileClaim: (since: ContinuousClock.Instant, contentHash: String?)] = [:]
    private var decided: [DecidedFile] = []
    /// The files of the commit awaited.
    private var committing: [DecidedFile]?
    /// Names that could not be claimed, with what they were then: not tried again while they stay the same.
    private var unclaimable: [String: EntryInfo] = [:]
    /// Claims left by dead watchers that could not be taken up, already reported.
    private var unadoptable: Set<String> = []
    /// Names that are not UTF-8 (as shown), already reported: such a file cannot be opened until it is renamed.
    private var undecodable: Set<String> = []
    /// Regular files inotify saw created and not yet closed after writing nor renamed in: their writer may pause for
    /// any time mid-file, so no scan takes them. The inode finds a file written unnamed (`O_TMPFILE`) and linked in,
    /// whose close is announced as `#<inode>`.
    private var beingWritten: [String: UInt64] = [:]
    /// Names that were being written when events were lost: a scan takes them once unchanged for `lostEventSettle`.
    private var lostEvents: Set<String> = []
    /// Names unchanged for `lostEventSettle` and still open for writing, already said in the log.
    private var saidStillOpen: Set<String> = []
    /// Files found by a scan and not settled yet: what `lstat` said, and since when it has said the same.
    private var observed: [String: (entry: EntryInfo, since: ContinuousClock.Instant)] = [:]
    private var rescanAt: ContinuousClock.Instant?
    private var sweepAt: ContinuousClock.Instant?
    private var watchdogAt: ContinuousClock.Instant?
    private var watchdogInterval: Duration?
    private var stopDeadline: ContinuousClock.Instant?
    private var lastStatus: ContinuousClock.Instant?
    /// While the store is unreachable or busy: when to try the decided files' commit again, and the wait after that.
    private var storeRetryAt: ContinuousClock.Instant?
    private var storeRetryWait: Duration = .seconds(1)
    private var exited = false
    private var actions: [WatchAction] = []

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The earliest moment a timer is due: the shell wakes then (with `.timerFired`) if nothing happens before.
    var nextDeadline: ContinuousClock.Instant? {
        let timeouts = decoding.values.map { $0.since + configuration.decodeTimeout }
        let sweep = stopDeadline == nil ? sweepAt : nil
        return ([rescanAt, sweep, watchdogAt, stopDeadline, storeRetryAt].compactMap { $0 } + timeouts).min()
    }

    /// True from the first stop request on: the shell stops reading inotify.
    var isStopping: Bool { stopDeadline != nil }

    /// How many files are in a decoder.
    var busyDecoders: Int { decoding.count }

    /// Takes one event at `now` and returns the actions, in the order the shell must perform them.
    mutating func handle(_ event: WatchEvent, now: ContinuousClock.Instant) -> [WatchAction] {
        guard !exited else { return [] }
        actions = []
        switch event {
        case .started(let interval):
            watchdogInterval = interval
            lastStatus = now
            actions.append(.scan)
        case .scanned(let scan): scanned(scan, now: now)
        case .swept(let adoption):
            adopt(adoption, now: now)
            recheck()
        case .fileCreated(let name, let entry): created(name, entry)
        case .fileCompleted(let name):
            // The kernel's name for a file written unnamed: its close completes the name it was linked in under. Any
            // other (a file really named `#12`, or one never linked in, which an `lstat` finds gone) is a name.
            let linked = Self.unnamedFileInode(name).map { inode in beingWritten.filter { $0.value == inode }.keys }
            if let linked, !linked.isEmpty {
                for written in linked.sorted() { completed(written) }
            } else if Inbox.isInputName(name) {
                completed(name)
            }
        case .fileRemoved(let name):
            beingWritten[name] = nil
            lostEvents.remove(name)
        case .undecodableName(let shown):
            if Inbox.isInputName(shown) { reportUndecodable(shown) }
        case .eventsOverflowed:
            // The closes of files being written may be among the lost events: they fall back to a long settle.
            lostEvents.formUnion(beingWritten.keys)
            beingWritten.removeAll()
            actions.append(.log("the kernel's event queue overflowed; rescanning the inbox"))
            actions.append(.scan)
        case .inboxGone:
            exit(.inboxGone)
            return actions
        case .folderAppeared:
            // Files may have landed in it before its watch began: a scan finds them (and watches its subfolders).
            actions.append(.scan)
        case .inspected(let name, let purpose, let facts): inspected(name, purpose, facts, now: now)
        case .claimed(let claim):
            taking = nil
            if isStopping { adopted.append(claim) } else { startDecoding(claim, now: now) }
        case .claimLost:
            taking = nil
        case .claimRefused(let name, let entry, let error):
            // Left in the inbox and remembered as it is now, so that neither a rescan nor an event makes a hot loop of
            // it; it is tried again once it changes (an owner or mode fixed, new content).
            taking = nil
            unclaimable[name] = entry
            let path = configuration.inbox + "/" + name
            actions.append(
                .reportStuck(WatchedFile(name: name, inboxPath: path, stuckAt: path, stage: .claim, error: error)))
        case .decodeStarted(let claim, let contentHash):
            if decoding[claim] != nil { decoding[claim]?.contentHash = contentHash }
        case .decoded(let claim, let contentHash, let result):
            if decoding.removeValue(forKey: claim) != nil { decide(claim, contentHash: contentHash, result) }
        case .decoderDied(let claim, let reason):
            guard let job = decoding.removeValue(forKey: claim) else { break }
            actions.append(
                .log("the decoder crashed on \(claim.name) (\(reason)); quarantining it and starting a new decoder"))
            decide(claim, contentHash: job.contentHash, .failure(.decoderCrashed(reason: reason)))
        case .committed(let results, let totals): committed(results, totals: totals, now: now)
        case .commitFailed(let error): commitFailed(error, now: now)
        case .stopSignal:
            if stopDeadline == nil { requestStop(now: now) } else { stopDeadline = now }
        case .stopRequested:
            if stopDeadline == nil { requestStop(now: now) }
        case .timerFired: runDueTimers(now: now)
        }
        advance(now: now)
        return actions
    }

    // MARK: Finding files

    private mutating func scanned(_ scan: InboxScan, now: ContinuousClock.Instant) {
        adopt(scan.adoption, now: now)
        for name in scan.names { enqueue(name, announced: false) }
        let present = Set(scan.names)
        observed = observed.filter { present.contains($0.key) }
        // A name gone since (its removal event read or lost) has nothing left to wait for.
        beingWritten = beingWritten.filter { present.contains($0.key) }
        lostEvents.formIntersection(present)
        for shown in scan.undecodable { reportUndecodable(shown) }
        undecodable.formIntersection(scan.undecodable)
        guard !started else { return }
        started = true
        actions.append(.notify(.ready))
        actions.append(.notify(.status("watching \(configuration.inbox)")))
        if let watchdogInterval {
            actions.append(.notify(.watchdog))
            watchdogAt = now + watchdogInterval
        }
        if let interval = configuration.pollInterval { rescanAt = now + interval }
    }

    private mutating func adopt(_ adoption: Adoption, now: ContinuousClock.Instant) {
        if !adoption.claims.isEmpty {
            actions.append(.log("took up \(adoption.claims.count) file(s) left claimed by a watcher that stopped"))
        }
        adopted += adoption.claims
        for failure in adoption.failures where unadoptable.insert(failure.path).inserted {
            actions.append(
                .log("cannot take up a file left claimed by a watcher that stopped: \(failure.message); it stays there")
            )
        }
        // Any watcher may die holding claims, one that starts after this one included: look again now and then.
        sweepAt = now + configuration.sweepInterval
    }

    /// A new regular file is being written: its close will announce it, and until then no scan may take it, however
    /// long its writer pauses. Anything else (a link, a FIFO, a folder) or a hard link of a finished file will never
    /// be closed after writing: it is looked at now.
    private mutating func created(_ name: String, _ entry: EntryInfo?) {
        // A folder is no input: watching subfolders, its arrival causes a scan (`folderAppeared`).
        guard Inbox.isInputName(name), let entry, entry.kind != .directory else { return }
        lostEvents.remove(name)
        if entry.kind == .regular && entry.links == 1 {
            beingWritten[name] = entry.inode
        } else {
            beingWritten[name] = nil
            enqueue(name, announced: true)
        }
    }

    /// A file closed after writing or renamed in: it is complete, queue it.
    private mutating func completed(_ name: String) {
        beingWritten[name] = nil
        lostEvents.remove(name)
        enqueue(name, announced: true)
    }

    private mutating func enqueue(_ name: String, announced: Bool) {
        if let known = queued[name] {
            if announced && !known { queued[name] = true }
            return
        }
        queued[name] = announced
        queue.append(name)
    }

    /// A file whose name is not UTF-8 is left in the inbox and reported once (again if it comes back).
    private mutating func reportUndecodable(_ shown: String) {
        guard undecodable.insert(shown).inserted else { return }
        let path = configuration.inbox + "/" + shown
        let error = SystemCallError("readdir", path: path, code: EILSEQ)
        actions.append(
            .reportStuck(WatchedFile(name: shown, inboxPath: path, stuckAt: path, stage: .name, error: error)))
    }

    /// The inode in the name `#<inode>` the kernel gives a file opened with `O_TMPFILE`; its close is announced
    /// under that name even after `linkat` gave it a real one (whose `IN_CREATE` was seen with one link).
    static func unnamedFileInode(_ path: String) -> UInt64? {
        let name = path.split(separator: "/").last ?? Substring(path)
        guard name.first == "#" else { return nil }
        return UInt64(name.dropFirst())
    }

    // MARK: Taking files

    /// Starts adopted claims, or asks about the next queued name, while a decoder is free.
    private mutating func dispatch(now: ContinuousClock.Instant) {
        guard !isStopping, storeRetryAt == nil, taking == nil else { return }
        while decoding.count < max(1, configuration.workers) {
            if let claim = adopted.popLast() {
                startDecoding(claim, now: now)
                continue
            }
            guard !queue.isEmpty else { return }
            let name = queue.removeFirst()
            let announced = queued.removeValue(forKey: name) ?? false
            // Created while watched and not closed yet: its `IN_CLOSE_WRITE` will queue it again. Announced or not,
            // the creation is the latest news about this name (an earlier file under it may have been announced,
            // then replaced).
            if beingWritten[name] != nil { continue }
            taking = name
            actions.append(.inspect(name, .take(announced: announced)))
            return
        }
    }

    private mutating func inspected(
        _ name: String, _ purpose: InspectionPurpose, _ facts: FileFacts?, now: ContinuousClock.Instant
    ) {
        switch purpose {
        case .take(let announced):
            guard taking == name else { return }
            taking = nil
            guard !isStopping, let facts else { return }
            take(name, announced: announced, facts, now: now)
        case .unclaimable:
            guard let then = unclaimable[name], facts?.entry != then else { return }
            unclaimable[name] = nil
            if facts != nil { enqueue(name, announced: false) }
        case .beingWritten:
            // A file still waiting for its close after staying unchanged for `lostEventSettle` is taken as if its
            // close had been lost: no name waits for ever on an event that may never come.
            guard beingWritten[name] != nil, let facts,
                isSettled(name, facts, for: configuration.lostEventSettle, now: now)
            else { return }
            guard facts.openForWriting != nil else {
                actions.append(.inspect(name, .beingWritten, probeWriters: true))
                return
            }
            // A stalled upload: taken now, it would be quarantined half-written, and its writer would go on writing
            // into the quarantined file. Its close will be announced.
            if stillOpenForWriting(name, facts, now: now) { return }
            beingWritten[name] = nil
            lostEvents.insert(name)
            enqueue(name, announced: false)
        }
    }

    private mutating func take(_ name: String, announced: Bool, _ facts: FileFacts, now: ContinuousClock.Instant) {
        let entry = facts.entry
        if let refused = unclaimable[name] {
            if refused == entry { return }
            unclaimable[name] = nil
        }
        // A folder is walked by scans (or left alone with `--no-recursive`), never taken.
        guard entry.kind != .directory else { return }
        // A file found by a scan may still be being written: inotify will announce it when closed, or a re-scan will
        // find it settled. An empty file may be a `touch` before the real write, even when announced; so may a
        // picture whose bytes end before the picture does (a writer that appends in pieces, closing after each):
        // either is taken (and quarantined) only once it has stayed unchanged for the settle time.
        let settle = lostEvents.contains(name) ? configuration.lostEventSettle : configuration.settle
        let unfinished = !announced || entry.size == 0 || facts.completeness == .incomplete
        if entry.kind == .regular && unfinished && !isSettled(name, facts, for: settle, now: now) {
            scheduleRescan(at: now + configuration.settle)
            return
        }
        // Settled to look at, but a writer still has it open (an upload that spans a restart of this watcher, or one
        // whose close was among the events lost in an overflow): not finished. Its close will be announced; without
        // inotify, a later scan looks again, soon at first, then at the poll interval. Taken, it was quarantined
        // half-written.
        if entry.kind == .regular && !announced && facts.openForWriting == nil {
            taking = name
            actions.append(.inspect(name, .take(announced: false), probeWriters: true))
            return
        }
        if entry.kind == .regular && !announced && stillOpenForWriting(name, facts, now: now) {
            lostEvents.remove(name)
            if configuration.inotify {
                beingWritten[name] = entry.inode
            } else if !isSettled(name, facts, for: configuration.lostEventSettle, now: now) {
                scheduleRescan(at: now + configuration.settle)
            }
            return
        }
        observed[name] = nil
        lostEvents.remove(name)
        taking = name
        actions.append(.claim(name, entry: entry))
    }

    /// True once `lstat` has said the same about the file (inode, size, times) for `settle` by this watcher's
    /// monotonic clock: a writer's clock, skewed or a year ahead (NFS, SMB), can neither make a file look finished
    /// nor keep it waiting for ever. With inotify the folder is local, and the kernel stamps the change time (which
    /// no writer can set) with this machine's clock: changed `settle` ago also means settled.
    private mutating func isSettled(
        _ name: String, _ facts: FileFacts, for settle: Duration, now: ContinuousClock.Instant
    ) -> Bool {
        if let seen = observed[name], seen.entry == facts.entry {
            if now - seen.since >= settle { return true }
        } else {
            observed[name] = (facts.entry, now)
        }
        return configuration.inotify && facts.sinceChange >= settle
    }

    /// Whether a process still has the file open for writing. Said once in the log when that has lasted
    /// `lostEventSettle`, so that a writer that never closes its file does not keep it waiting unseen.
    private mutating func stillOpenForWriting(_ name: String, _ facts: FileFacts, now: ContinuousClock.Instant) -> Bool
    {
        guard facts.openForWriting == true else { return false }
        let settle = configuration.lostEventSettle
        if isSettled(name, facts, for: settle, now: now), saidStillOpen.insert(name).inserted {
            actions.append(
                .log(
                    "\(SafeText.escaped(name)): unchanged for \(settle) and still open for writing; "
                        + "taken once its writer closes it"))
        }
        return true
    }

    private mutating func scheduleRescan(at time: ContinuousClock.Instant) {
        if rescanAt.map({ time < $0 }) ?? true { rescanAt = time }
    }

    // MARK: Decoding and committing

    private mutating func startDecoding(_ claim: FileClaim, now: ContinuousClock.Instant) {
        decoding[claim] = (now, nil)
        actions.append(.decode(claim))
    }

    private mutating func decide(
        _ claim: FileClaim, contentHash: String?, _ result: Result<[QRSymbol], ScanError>
    ) {
        let outcome = FileProcessor.outcome(path: claim.inboxPath, contentHash: contentHash, decoded: result)
        decided.append(DecidedFile(claim: claim, outcome: outcome))
    }

    /// Commits every decided file in one transaction, unless a commit is awaited or the store is being waited out.
    private mutating func commitIfDue(now: ContinuousClock.Instant) {
        guard !decided.isEmpty, committing == nil, storeRetryAt.map({ now >= $0 }) ?? true else { return }
        committing = decided
        decided.removeAll()
        actions.append(.commit(committing!))
    }

    private mutating func committed(_ results: [FileResult], totals: LoadTotals, now: ContinuousClock.Instant) {
        let batch = committing ?? []
        committing = nil
        if storeRetryAt != nil && !results.isEmpty {
            actions.append(.log("the store is back; committed the \(batch.count) file(s) that waited"))
            storeRetryAt = nil
            storeRetryWait = .seconds(1)
        }
        for (file, result) in zip(batch, results) {
            if result.outcome == .rejected {
                actions.append(.quarantine(file.claim, result, reason: result.file.rejection ?? .noCodeFound))
            } else {
                actions.append(.archive(file.claim, result))
            }
        }
        if lastStatus.map({ now - $0 >= .seconds(1) }) ?? true {
            lastStatus = now
            actions.append(
                .notify(
                    .status(
                        "watching \(configuration.inbox): \(totals.files) files, \(totals.inserted) inserted, "
                            + "\(totals.duplicates) duplicates, \(totals.rejected) rejected")))
        }
    }

    /// A store that cannot be reached or stays busy (a PostgreSQL restart, another process's long transaction) is
    /// waited out: the files stay decided and claimed, and the commit is tried again later. Trying again counts
    /// nothing twice: the transaction committed nothing, or (a COMMIT whose answer was lost) entered every file's
    /// content in the ledger, where the next try finds it.
    private mutating func commitFailed(_ error: StoreError, now: ContinuousClock.Instant) {
        let batch = committing ?? []
        committing = nil
        guard error.isWorthWaitingFor else {
            decided = batch + decided
            exit(.storeFailed(error))
            return
        }
        decided = batch + decided
        storeRetryAt = now + storeRetryWait
        actions.append(.log("\(error.message); trying again in \(storeRetryWait), new files wait in the inbox"))
        storeRetryWait = min(storeRetryWait * 2, configuration.storeRetryLimit)
    }

    // MARK: Timers and stopping

    private mutating func runDueTimers(now: ContinuousClock.Instant) {
        for (claim, job) in decoding where now >= job.since + configuration.decodeTimeout {
            decoding[claim] = nil
            let reason = "no answer within \(configuration.decodeTimeout.components.seconds) s; killed"
            actions.append(
                .log("the decoder hung on \(claim.name) (\(reason)); quarantining it and starting a new decoder"))
            actions.append(.killDecoder(claim))
            decide(claim, contentHash: job.contentHash, .failure(.decoderCrashed(reason: reason)))
        }
        if let at = rescanAt, now >= at {
            rescanAt = configuration.pollInterval.map { now + $0 }
            actions.append(.scan)
        }
        // Not while stopping: a claim taken up then would only be left for the next start.
        if let at = sweepAt, now >= at, !isStopping {
            sweepAt = nil
            actions.append(.sweep)
        }
        if let at = watchdogAt, now >= at, let interval = watchdogInterval {
            actions.append(.notify(.watchdog))
            watchdogAt = now + interval
        }
    }

    /// After a sweep: files that could not be claimed and those still being written are looked at again.
    private mutating func recheck() {
        for name in unclaimable.keys.sorted() { actions.append(.inspect(name, .unclaimable)) }
        saidStillOpen.formIntersection(beingWritten.keys)
        for name in beingWritten.keys.sorted() { actions.append(.inspect(name, .beingWritten)) }
    }

    /// The first stop finishes the files in hand: nothing more is claimed, and files still in a decoder after the
    /// stop grace stay claimed for the next start.
    private mutating func requestStop(now: ContinuousClock.Instant) {
        stopDeadline = now + configuration.stopGrace
        actions.append(.notify(.stopping))
        actions.append(.log("stopping: finishing the files in hand"))
    }

    /// After every event: take files while decoders are free, commit what is decided, end a stop that is done.
    private mutating func advance(now: ContinuousClock.Instant) {
        guard !exited, started else { return }
        dispatch(now: now)
        commitIfDue(now: now)
        guard let stopDeadline, committing == nil, taking == nil, decoding.isEmpty || now >= stopDeadline else {
            return
        }
        let abandoned = decoding.count + adopted.count + decided.count
        if abandoned > 0 {
            actions.append(.log("stopped with \(abandoned) file(s) still claimed; the next start takes them up"))
        }
        exit(.stopped)
    }

    private mutating func exit(_ reason: WatchExit) {
        exited = true
        actions.append(.exit(reason))
    }
}
