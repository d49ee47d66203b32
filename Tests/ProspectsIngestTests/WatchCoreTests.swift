import ProspectStore
import ProspectsCore
import QRDecoding
import SystemCalls
import Testing

@testable import ProspectsIngest

/// The watcher's decisions, driven event by event with a clock the test moves: no files, no processes, no sleeps.
/// Each action is compared by its one-line description (see `WatchAction.description`).
struct WatchCoreTests {
    /// A core and the time it is told; `send` hands it one event at that time.
    struct Driver {
        var core: WatchCore
        var now = ContinuousClock.now
        var inode: UInt64 = 100

        init(
            inotify: Bool = true, pollInterval: Duration? = nil, workers: Int = 2,
            decodeTimeout: Duration = .seconds(30),
            sweepInterval: Duration = .seconds(2)
        ) {
            core = WatchCore(
                configuration: WatchCore.Configuration(
                    inbox: "/in", inotify: inotify, pollInterval: pollInterval, workers: workers,
                    decodeTimeout: decodeTimeout, settle: .milliseconds(500), lostEventSettle: .seconds(30),
                    stopGrace: .milliseconds(1500), sweepInterval: sweepInterval, storeRetryLimit: .seconds(30)))
        }

        @discardableResult
        mutating func send(_ event: WatchEvent) -> [String] {
            core.handle(event, now: now).map(\.description)
        }

        /// The raw actions, for the ones whose payload a test looks into.
        mutating func actions(_ event: WatchEvent) -> [WatchAction] {
            core.handle(event, now: now)
        }

        mutating func wait(_ duration: Duration) { now += duration }

        /// Starts the core as the shell does: started, then the first scan's answer.
        @discardableResult
        mutating func start(names: [String] = [], adopted: [FileClaim] = [], watchdog: Duration? = nil) -> [String] {
            #expect(send(.started(watchdogInterval: watchdog)) == ["scan"])
            return send(.scanned(InboxScan(adoption: Adoption(claims: adopted), names: names)))
        }

        /// What `lstat` would say: a regular file of `size` bytes, changed `sinceChange` ago.
        func facts(
            size: Int = 1000, inode: UInt64 = 7, kind: EntryInfo.Kind = .regular, links: Int = 1,
            sinceChange: Duration = .zero, open: Bool? = nil
        ) -> FileFacts {
            let entry = EntryInfo(
                kind: kind, device: 1, inode: inode, links: links, size: size, modified: 0, changed: 0)
            return FileFacts(entry: entry, sinceChange: sinceChange, openForWriting: open)
        }

        /// Answers an `inspect` as the shell does: `lstat` first; when the core then asks for the lease probe, the
        /// probe's answer (`facts.openForWriting`, false when not set).
        @discardableResult
        mutating func answer(_ name: String, _ purpose: InspectionPurpose, _ facts: FileFacts) -> [String] {
            var looked = facts
            looked.openForWriting = nil
            let first = send(.inspected(name: name, purpose: purpose, facts: looked))
            guard first == ["inspect \(name) +writers"] else { return first }
            looked.openForWriting = facts.openForWriting ?? false
            return send(.inspected(name: name, purpose: purpose, facts: looked))
        }

        /// Takes an announced file all the way into a decoder; returns its claim.
        @discardableResult
        mutating func takeToDecoder(_ name: String) -> FileClaim {
            #expect(send(.fileCompleted(name: name)) == ["inspect \(name)"])
            #expect(send(.inspected(name: name, purpose: .take(announced: true), facts: facts())) == ["claim \(name)"])
            let claim = WatchCoreTests.claim(name)
            #expect(send(.claimed(claim)) == ["decode \(name)"])
            #expect(send(.decodeStarted(claim, contentHash: "hash-\(name)")).isEmpty)
            return claim
        }
    }

    static func claim(_ name: String) -> FileClaim {
        FileClaim(name: name, inboxPath: "/in/" + name, claimedPath: "/in/.processing/w/1." + name)
    }

    static func contact(_ name: String) -> Result<[QRSymbol], ScanError> {
        let text = "\(name)\n\(name.lowercased())@example.com"
        return .success([
            QRSymbol(bytes: Array(text.utf8), text: text, encoding: "UTF-8", corners: [], quality: 1)
        ])
    }

    /// What the loader would report for the files of a commit: each inserted, or rejected when it has no prospect.
    static func results(_ files: [DecidedFile]) -> [FileResult] {
        files.map { file in
            let codes: [FileResult.CodeStatus] = file.outcome.codes.enumerated().map { index, code in
                switch code.result {
                case .success: .inserted(id: Int64(index + 1))
                case .failure(let error): .rejected(error)
                }
            }
            return FileResult(file: file.outcome, codes: codes, alreadyLoaded: false)
        }
    }

    static func committed(_ actions: [WatchAction]) -> WatchEvent? {
        for case .commit(let files) in actions { return .committed(results(files), totals: LoadTotals()) }
        return nil
    }

    // MARK: Start and systemd

    @Test func startScansFirstThenTellsSystemdItIsReady() {
        var driver = Driver()
        #expect(driver.start() == ["notify READY", "notify STATUS watching /in"])
    }

    @Test func watchdogPingsComeAtTheirInterval() {
        var driver = Driver()
        #expect(driver.start(watchdog: .seconds(10)).contains("notify WATCHDOG"))
        driver.wait(.seconds(9))
        #expect(!driver.send(.timerFired).contains("notify WATCHDOG"))
        driver.wait(.seconds(1))
        #expect(driver.send(.timerFired).contains("notify WATCHDOG"))
        driver.wait(.seconds(5))
        #expect(!driver.send(.timerFired).contains("notify WATCHDOG"))
        driver.wait(.seconds(5))
        #expect(driver.send(.timerFired).contains("notify WATCHDOG"))
    }

    @Test func withoutAWatchdogNoPingIsSent() {
        var driver = Driver()
        driver.start()
        driver.wait(.seconds(120))
        #expect(!driver.send(.timerFired).contains("notify WATCHDOG"))
    }

    // MARK: Settle

    @Test func anAnnouncedFileIsInspectedClaimedAndDecodedAtOnce() {
        var driver = Driver()
        driver.start()
        driver.takeToDecoder("a.png")
        #expect(driver.core.busyDecoders == 1)
    }

    @Test func aScannedFileIsTakenOnlyOnceUnchangedForTheSettleTime() {
        var driver = Driver(inotify: false, pollInterval: .seconds(60))
        #expect(driver.start(names: ["a.png"]).last == "inspect a.png")
        let facts = driver.facts()
        #expect(driver.answer("a.png", .take(announced: false), facts).isEmpty)
        #expect(driver.core.nextDeadline == driver.now + .milliseconds(500))
        driver.wait(.milliseconds(499))
        #expect(driver.send(.timerFired).isEmpty)
        driver.wait(.milliseconds(1))
        #expect(driver.send(.timerFired) == ["scan"])
        #expect(driver.send(.scanned(InboxScan(names: ["a.png"]))) == ["inspect a.png"])
        #expect(
            driver.answer("a.png", .take(announced: false), facts) == ["claim a.png"])
    }

    @Test func aScannedFileThatKeepsChangingWaitsUntilItStops() {
        var driver = Driver(inotify: false, pollInterval: .seconds(60))
        driver.start(names: ["a.png"])
        // Three looks half a second apart, each finding it grown: not taken. The fourth finds it as the third did.
        for size in [100, 200, 300] {
            let facts = driver.facts(size: size)
            #expect(driver.answer("a.png", .take(announced: false), facts).isEmpty)
            driver.wait(.milliseconds(500))
            #expect(driver.send(.timerFired) == ["scan"])
            #expect(driver.send(.scanned(InboxScan(names: ["a.png"]))) == ["inspect a.png"])
        }
        let last = driver.facts(size: 300)
        #expect(
            driver.answer("a.png", .take(announced: false), last) == ["claim a.png"])
    }

    @Test func withInotifyAFileFoundByAScanAndChangedLongAgoIsTakenAtOnce() {
        var driver = Driver()
        driver.start(names: ["a.png"])
        let old = driver.facts(sinceChange: .seconds(5))
        #expect(driver.answer("a.png", .take(announced: false), old) == ["claim a.png"])
    }

    /// Under `--poll` the change time may come from a writer's skewed clock (NFS): only the watcher's own clock counts.
    @Test func inPollModeAFileDatedLongAgoStillWaitsForTheSettleTime() {
        var driver = Driver(inotify: false, pollInterval: .seconds(60))
        driver.start(names: ["a.png"])
        let old = driver.facts(sinceChange: .seconds(86_400))
        #expect(driver.answer("a.png", .take(announced: false), old).isEmpty)
    }

    /// A writer a year ahead (clock skew on NFS / SMB): the change time says nothing; once the file stops changing
    /// for the settle time by the watcher's clock it is taken, however far ahead its dates are.
    @Test func aFileDatedInTheFutureIsTakenOnceItStopsChangingByTheWatchersClock() {
        var driver = Driver(inotify: false, pollInterval: .milliseconds(100))
        driver.start(names: ["f.png"])
        let ahead = Duration.seconds(-365 * 86_400)
        for size in [100, 200, 300, 300, 300, 300, 300] {
            let facts = driver.facts(size: size, sinceChange: ahead)
            #expect(driver.answer("f.png", .take(announced: false), facts).isEmpty)
            driver.wait(.milliseconds(100))
            #expect(driver.send(.timerFired) == ["scan"])
            driver.send(.scanned(InboxScan(names: ["f.png"])))
        }
        // Unchanged since the third look, 500 ms ago.
        let facts = driver.facts(size: 300, sinceChange: ahead)
        #expect(
            driver.answer("f.png", .take(announced: false), facts) == ["claim f.png"])
    }

    /// A slow upload that spans a restart: found by the first scan, settled to look at, but its writer holds it.
    @Test func aFileHeldOpenForWritingAtStartWaitsForItsClose() {
        var driver = Driver()
        driver.start(names: ["up.png"])
        var facts = driver.facts(sinceChange: .seconds(1))
        // Settled to look at: before taking it, the core asks for the lease probe, and hears a writer holds it.
        #expect(
            driver.send(.inspected(name: "up.png", purpose: .take(announced: false), facts: facts)) == [
                "inspect up.png +writers"
            ])
        facts.openForWriting = true
        #expect(driver.send(.inspected(name: "up.png", purpose: .take(announced: false), facts: facts)).isEmpty)
        // Now among the files being written: rescans leave it alone, however long it waits.
        driver.wait(.seconds(10))
        #expect(driver.send(.scanned(InboxScan(names: ["up.png"]))).isEmpty)
        #expect(driver.send(.fileCompleted(name: "up.png")) == ["inspect up.png"])
        let closed = driver.facts(sinceChange: .zero)
        #expect(
            driver.answer("up.png", .take(announced: true), closed) == ["claim up.png"])
    }

    @Test func anAnnouncedEmptyFileWaitsForTheSettleTimeLikeATouchBeforeTheWrite() {
        var driver = Driver()
        driver.start()
        #expect(driver.send(.fileCompleted(name: "e.png")) == ["inspect e.png"])
        let empty = driver.facts(size: 0)
        #expect(driver.answer("e.png", .take(announced: true), empty).isEmpty)
        driver.wait(.milliseconds(500))
        #expect(driver.send(.timerFired) == ["scan"])
        driver.send(.scanned(InboxScan(names: ["e.png"])))
        #expect(
            driver.answer("e.png", .take(announced: false), empty) == ["claim e.png"])
    }

    // MARK: Pictures written in pieces, files that are no pictures, folders

    /// A writer that appends a picture in three opens, each closed, with pauses under the settle time: each close is
    /// announced, but the picture is incomplete until the last piece, so it is claimed once, whole.
    @Test func aPictureAppendedInPiecesIsTakenOnceWholeNotAtEachClose() {
        var driver = Driver()
        driver.start()
        for size in [300, 600] {
            #expect(driver.send(.fileCompleted(name: "p.png")) == ["inspect p.png"])
            var piece = driver.facts(size: size)
            piece.completeness = .incomplete
            #expect(driver.answer("p.png", .take(announced: true), piece).isEmpty, "piece of \(size) bytes")
            driver.wait(.milliseconds(300))
        }
        // The rescan meant to judge the first piece once quiet finds the second one not quiet yet.
        #expect(driver.send(.timerFired) == ["scan"])
        #expect(driver.send(.scanned(InboxScan(names: ["p.png"]))) == ["inspect p.png"])
        let second = driver.facts(size: 600, sinceChange: .milliseconds(300))
        #expect(driver.answer("p.png", .take(announced: false), second).isEmpty)
        driver.wait(.milliseconds(100))
        #expect(driver.send(.fileCompleted(name: "p.png")) == ["inspect p.png"])
        var whole = driver.facts(size: 900)
        whole.completeness = .complete
        #expect(driver.answer("p.png", .take(announced: true), whole) == ["claim p.png"])
    }

    /// An incomplete picture that stays unchanged for the settle time is taken, and quarantined as cut short.
    @Test func anIncompletePictureQuietForTheSettleTimeIsQuarantinedAsTruncated() throws {
        var driver = Driver()
        driver.start()
        #expect(driver.send(.fileCompleted(name: "cut.jpg")) == ["inspect cut.jpg"])
        var cut = driver.facts(size: 300)
        cut.completeness = .incomplete
        #expect(driver.answer("cut.jpg", .take(announced: true), cut).isEmpty)
        #expect(driver.core.nextDeadline == driver.now + .milliseconds(500))
        driver.wait(.milliseconds(499))
        #expect(driver.send(.timerFired).isEmpty)
        driver.wait(.milliseconds(1))
        #expect(driver.send(.timerFired) == ["scan"])
        #expect(driver.send(.scanned(InboxScan(names: ["cut.jpg"]))) == ["inspect cut.jpg"])
        let quiet = driver.facts(size: 300, sinceChange: .milliseconds(500))
        #expect(driver.answer("cut.jpg", .take(announced: false), quiet) == ["claim cut.jpg"])
        let claim = Self.claim("cut.jpg")
        #expect(driver.send(.claimed(claim)) == ["decode cut.jpg"])
        let actions = driver.actions(.decoded(claim, contentHash: "h", .failure(.truncatedImage(format: "JPEG"))))
        #expect(driver.send(try #require(Self.committed(actions))).first == "quarantine cut.jpg: unreadableImage")
    }

    /// A file that is no picture (a note, a GIF) is taken at its close, not kept waiting: no wait makes it one.
    @Test func aFileThatIsNoPictureIsTakenAtOnceAndQuarantined() throws {
        var driver = Driver()
        driver.start()
        #expect(driver.send(.fileCompleted(name: "notes.txt")) == ["inspect notes.txt"])
        var text = driver.facts(size: 20)
        text.completeness = .notAPicture(.text)
        #expect(driver.answer("notes.txt", .take(announced: true), text) == ["claim notes.txt"])
        let claim = Self.claim("notes.txt")
        #expect(driver.send(.claimed(claim)) == ["decode notes.txt"])
        let actions = driver.actions(
            .decoded(claim, contentHash: "h", .failure(.unsupportedImage(kind: "a text file"))))
        #expect(driver.send(try #require(Self.committed(actions))).first == "quarantine notes.txt: unreadableImage")
    }

    /// A folder appearing in the inbox is walked by the scan its arrival causes, never claimed as a file.
    @Test func aFolderIsNeverTaken() {
        var driver = Driver()
        driver.start()
        let folder = driver.facts(kind: .directory)
        #expect(driver.send(.fileCreated(name: "2026-12", entry: folder.entry)).isEmpty)
        #expect(driver.send(.folderAppeared(name: "2026-12")) == ["scan"])
        #expect(driver.send(.fileCompleted(name: "moved-in")) == ["inspect moved-in"])
        #expect(driver.answer("moved-in", .take(announced: true), folder).isEmpty)
        #expect(driver.send(.scanned(InboxScan(names: ["2026-12/a.jpg"]))) == ["inspect 2026-12/a.jpg"])
    }

    /// Hidden names and the names writers use until a file is whole are never looked at, whatever their ending.
    @Test func hiddenAndTemporaryNamesAreIgnoredAndEveryOtherNameIsLookedAt() {
        var driver = Driver()
        driver.start()
        for name in [".x.jpg", "sub/.syncthing.x.jpg.tmp", "x.jpg.crdownload", "x.heic.part", "x.jpg~"] {
            #expect(driver.send(.fileCompleted(name: name)).isEmpty, "\(name)")
        }
        #expect(driver.send(.fileCompleted(name: "IMG_0001.HEIC")) == ["inspect IMG_0001.HEIC"])
    }

    // MARK: Files being written, lost events

    @Test func aFileSeenCreatedIsNotTakenByARescanUntilItsClose() {
        var driver = Driver()
        driver.start()
        #expect(driver.send(.fileCreated(name: "t.png", entry: driver.facts().entry)).isEmpty)
        // A rescan for another file lists it half-written: not inspected.
        #expect(driver.send(.scanned(InboxScan(names: ["t.png"]))).isEmpty)
        #expect(driver.send(.fileCompleted(name: "t.png")) == ["inspect t.png"])
    }

    @Test func aLinkOrFifoCreatedInTheInboxIsLookedAtAtOnce() {
        var driver = Driver()
        driver.start()
        let link = driver.facts(kind: .symbolicLink).entry
        #expect(driver.send(.fileCreated(name: "l.png", entry: link)) == ["inspect l.png"])
        let hardLink = driver.facts(links: 2).entry
        #expect(driver.send(.fileCreated(name: "h.png", entry: hardLink)).isEmpty, "one name at a time")
    }

    @Test func renamedInFromAPartNameIsTakenAndTemporaryNamesNever() {
        var driver = Driver()
        driver.start()
        for name in ["a.png.part", ".hidden.png", "b.png.tmp", "c.png~", "d.jpg.crdownload"] {
            #expect(driver.send(.fileCreated(name: name, entry: driver.facts().entry)).isEmpty, "\(name)")
            #expect(driver.send(.fileCompleted(name: name)).isEmpty, "\(name)")
        }
        // The rename to the final name (IN_MOVED_TO) is its completion.
        #expect(driver.send(.fileCompleted(name: "a.png")) == ["inspect a.png"])
        #expect(
            driver.answer("a.png", .take(announced: true), driver.facts()) == [
                "claim a.png"
            ])
    }

    /// A folder appearing in a watched one may already hold files (made before its watch began): a scan finds them.
    @Test func aNewSubfolderLeadsToAScanAndItsFilesAreJudgedByTheirLastName() {
        var driver = Driver()
        driver.start()
        #expect(driver.send(.folderAppeared(name: "new")) == ["scan"])
        #expect(driver.send(.fileCompleted(name: "new/.hidden.png")).isEmpty)
        #expect(driver.send(.fileCompleted(name: "new/x.png.part")).isEmpty)
        #expect(driver.send(.fileCompleted(name: "new/x.png")) == ["inspect new/x.png"])
        driver.send(.fileCreated(name: "new/u.png", entry: driver.facts(inode: 43).entry))
        #expect(WatchCore.unnamedFileInode("new/#43") == 43)
    }

    @Test func aFileWrittenUnnamedIsTakenWhenItsInodeIsClosed() {
        var driver = Driver()
        driver.start()
        driver.send(.fileCreated(name: "u.png", entry: driver.facts(inode: 42).entry))
        // Another unnamed file, never linked in: looked at as a name, and found gone.
        #expect(driver.send(.fileCompleted(name: "#41")) == ["inspect #41"])
        #expect(driver.send(.inspected(name: "#41", purpose: .take(announced: true), facts: nil)).isEmpty)
        #expect(driver.send(.fileCompleted(name: "#42")) == ["inspect u.png"])
    }

    @Test func anOverflowRescansAndAFileBeingWrittenFallsBackToTheLongSettle() {
        var driver = Driver()
        driver.start()
        driver.send(.fileCreated(name: "w.png", entry: driver.facts().entry))
        #expect(
            driver.send(.eventsOverflowed) == ["log the kernel's event queue overflowed; rescanning the inbox", "scan"])
        #expect(driver.send(.scanned(InboxScan(names: ["w.png"]))) == ["inspect w.png"])
        let facts = driver.facts(sinceChange: .seconds(1))
        #expect(driver.answer("w.png", .take(announced: false), facts).isEmpty)
        driver.wait(.seconds(29))
        driver.send(.timerFired)
        driver.send(.scanned(InboxScan(names: ["w.png"])))
        #expect(driver.answer("w.png", .take(announced: false), facts).isEmpty)
        driver.wait(.seconds(1))
        driver.send(.timerFired)
        driver.send(.scanned(InboxScan(names: ["w.png"])))
        #expect(
            driver.answer("w.png", .take(announced: false), facts) == ["claim w.png"])
    }

    @Test func afterAnOverflowAWriterStillHoldingTheFileKeepsItWaitingForItsClose() {
        var driver = Driver()
        driver.start()
        driver.send(.fileCreated(name: "w.png", entry: driver.facts().entry))
        driver.send(.eventsOverflowed)
        driver.send(.scanned(InboxScan(names: ["w.png"])))
        let held = driver.facts(open: true)
        #expect(driver.answer("w.png", .take(announced: false), held).isEmpty)
        driver.wait(.seconds(30))
        driver.send(.timerFired)
        driver.send(.scanned(InboxScan(names: ["w.png"])))
        #expect(
            driver.answer("w.png", .take(announced: false), held) == [
                "log w.png: unchanged for 30.0 seconds and still open for writing; taken once its writer closes it"
            ])
        // Back among the files being written: rescans leave it alone, its close takes it.
        #expect(driver.send(.scanned(InboxScan(names: ["w.png"]))).isEmpty)
        #expect(driver.send(.fileCompleted(name: "w.png")) == ["inspect w.png"])
    }

    @Test func aFileWhoseCloseNeverComesIsTakenAfterTheLongWait() {
        var driver = Driver()
        driver.start()
        driver.send(.fileCreated(name: "l.png", entry: driver.facts().entry))
        driver.wait(.seconds(2))
        #expect(driver.send(.timerFired) == ["sweep"])
        #expect(driver.send(.swept(Adoption())) == ["inspect l.png"])
        let facts = driver.facts()
        #expect(driver.answer("l.png", .beingWritten, facts).isEmpty)
        driver.wait(.seconds(30))
        #expect(driver.send(.timerFired) == ["sweep"])
        driver.send(.swept(Adoption()))
        #expect(
            driver.answer("l.png", .beingWritten, facts) == ["inspect l.png"])
    }

    @Test func aStalledUploadWhoseWriterHoldsItIsSaidOnceAndNotTaken() {
        var driver = Driver()
        driver.start()
        driver.send(.fileCreated(name: "s.png", entry: driver.facts().entry))
        let held = driver.facts(open: true)
        driver.wait(.seconds(2))
        driver.send(.timerFired)
        driver.send(.swept(Adoption()))
        driver.answer("s.png", .beingWritten, held)
        var said = 0
        for _ in 0..<3 {
            driver.wait(.seconds(30))
            driver.send(.timerFired)
            driver.send(.swept(Adoption()))
            let actions = driver.answer("s.png", .beingWritten, held)
            #expect(!actions.contains { $0.hasPrefix("inspect") || $0.hasPrefix("claim") })
            said += actions.filter { $0.contains("still open for writing") }.count
        }
        #expect(said == 1)
    }

    // MARK: Claiming

    @Test func aClaimLostToAnotherWatcherDoesNothingAndTheNextFileGoesOn() {
        var driver = Driver()
        driver.start()
        driver.send(.fileCompleted(name: "a.png"))
        #expect(driver.send(.fileCompleted(name: "b.png")).isEmpty, "one name is taken at a time")
        #expect(
            driver.answer("a.png", .take(announced: true), driver.facts()) == [
                "claim a.png"
            ])
        #expect(driver.send(.claimLost(name: "a.png")) == ["inspect b.png"])
        #expect(driver.core.busyDecoders == 0)
    }

    @Test func aFileThatMayNotBeClaimedIsReportedOnceAndTriedAgainWhenItChanges() {
        var driver = Driver()
        driver.start()
        driver.send(.fileCompleted(name: "a.png"))
        let facts = driver.facts()
        driver.answer("a.png", .take(announced: true), facts)
        let error = SystemCallError("renameat2", path: "/in/a.png", code: 1)
        #expect(
            driver.send(.claimRefused(name: "a.png", entry: facts.entry, error: error)) == ["stuck a.png at claim"])
        // A rescan finds it unchanged: not claimed again, not reported again.
        driver.send(.scanned(InboxScan(names: ["a.png"])))
        #expect(driver.answer("a.png", .take(announced: false), facts).isEmpty)
        // The sweep looks at it; its owner changed it: it is queued and taken.
        driver.wait(.seconds(2))
        driver.send(.timerFired)
        #expect(driver.send(.swept(Adoption())) == ["inspect a.png"])
        let changed = driver.facts(sinceChange: .seconds(1), open: false)
        var moved = changed
        moved.entry.changed = 1
        #expect(
            driver.answer("a.png", .unclaimable, moved) == ["inspect a.png"])
    }

    @Test func claimsLeftByADeadWatcherAreDecodedFirst() {
        var driver = Driver(workers: 1)
        let dead = Self.claim("old.png")
        let actions = driver.start(names: ["new.png"], adopted: [dead])
        #expect(actions.first == "log took up 1 file(s) left claimed by a watcher that stopped")
        #expect(actions.last == "decode old.png")
        #expect(!actions.contains("inspect new.png"), "the only decoder is busy")
    }

    @Test func aNameThatIsNotUTF8IsReportedOnce() {
        var driver = Driver()
        #expect(driver.send(.started(watchdogInterval: nil)) == ["scan"])
        let first = driver.send(.scanned(InboxScan(undecodable: ["caf\u{FFFD}.png"])))
        #expect(first.first == "stuck caf\u{FFFD}.png at name")
        #expect(driver.send(.scanned(InboxScan(undecodable: ["caf\u{FFFD}.png"]))).isEmpty)
        #expect(driver.send(.undecodableName(shown: "caf\u{FFFD}.png")).isEmpty)
    }

    @Test func noMoreFilesAreTakenThanThereAreDecoders() {
        var driver = Driver(workers: 1)
        driver.start()
        let a = driver.takeToDecoder("a.png")
        #expect(driver.send(.fileCompleted(name: "b.png")).isEmpty)
        #expect(driver.send(.decoded(a, contentHash: "h", Self.contact("Ann"))) == ["inspect b.png", "commit a.png"])
    }

    // MARK: Decoding outcomes

    @Test func aDecodedContactIsCommittedThenArchived() throws {
        var driver = Driver()
        driver.start()
        let claim = driver.takeToDecoder("a.png")
        let actions = driver.actions(.decoded(claim, contentHash: "h", Self.contact("Ann")))
        #expect(actions.map(\.description) == ["commit a.png"])
        guard case .commit(let files) = actions.first else { return }
        #expect(files.first?.outcome.prospects.first?.name == "Ann")
        #expect(files.first?.outcome.contentHash == "h")
        driver.wait(.seconds(2))
        let event = try #require(Self.committed(actions))
        #expect(
            driver.send(event) == [
                "archive a.png",
                "notify STATUS watching /in: 0 files, 0 inserted, 0 duplicates, 0 rejected",
            ])
    }

    @Test func aFileWithNoCodeIsQuarantinedWithItsReason() throws {
        var driver = Driver()
        driver.start()
        let claim = driver.takeToDecoder("a.png")
        let actions = driver.actions(.decoded(claim, contentHash: "h", .success([])))
        #expect(driver.send(try #require(Self.committed(actions))).first == "quarantine a.png: noCodeFound")
    }

    @Test func aDecoderCrashQuarantinesTheFileAsDecoderCrashed() throws {
        var driver = Driver()
        driver.start()
        let claim = driver.takeToDecoder("poison.png")
        let actions = driver.actions(.decoderDied(claim, reason: "killed by signal 6"))
        #expect(
            actions.map(\.description) == [
                "log the decoder crashed on poison.png (killed by signal 6); quarantining it and starting a new decoder",
                "commit poison.png",
            ])
        guard case .commit(let files) = actions.last else { return }
        #expect(files.first?.outcome.contentHash == "hash-poison.png", "the reason file keeps the content hash")
        #expect(driver.send(try #require(Self.committed(actions))).first == "quarantine poison.png: decoderCrashed")
    }

    @Test func aStuckFileIsKilledAtTheDecodeTimeoutAndQuarantined() throws {
        var driver = Driver(decodeTimeout: .seconds(30), sweepInterval: .seconds(3600))
        driver.start()
        let claim = driver.takeToDecoder("stuck.png")
        driver.wait(.seconds(29))
        #expect(driver.send(.timerFired).isEmpty)
        #expect(driver.core.nextDeadline! <= driver.now + .seconds(1))
        driver.wait(.seconds(1))
        let actions = driver.actions(.timerFired)
        #expect(
            actions.map(\.description) == [
                "log the decoder hung on stuck.png (no answer within 30 s; killed); quarantining it and starting a "
                    + "new decoder",
                "kill decoder of stuck.png", "commit stuck.png",
            ])
        // A late answer from the killed decoder changes nothing.
        #expect(driver.send(.decoded(claim, contentHash: "h", Self.contact("Late"))).isEmpty)
        #expect(driver.send(try #require(Self.committed(actions))).first == "quarantine stuck.png: decoderCrashed")
    }

    @Test func oneCommitAtATimeAndWhatIsDecidedMeanwhileGoesInTheNext() throws {
        var driver = Driver()
        driver.start()
        let a = driver.takeToDecoder("a.png")
        let b = driver.takeToDecoder("b.png")
        let first = driver.actions(.decoded(a, contentHash: "ha", Self.contact("Ann")))
        #expect(first.map(\.description) == ["commit a.png"])
        #expect(driver.send(.decoded(b, contentHash: "hb", Self.contact("Bob"))).isEmpty, "a commit is awaited")
        let next = driver.send(try #require(Self.committed(first)))
        #expect(next.first == "archive a.png")
        #expect(next.last == "commit b.png")
    }

    @Test func theStatusLineIsSentAtMostOnceASecond() throws {
        var driver = Driver()
        driver.start()
        var statuses: [Bool] = []
        for wait in [Duration.milliseconds(300), .seconds(1), .milliseconds(500), .milliseconds(600)] {
            driver.wait(wait)
            let claim = driver.takeToDecoder("f.png")
            let commit = driver.actions(.decoded(claim, contentHash: "h", Self.contact("Ann")))
            let done = driver.send(try #require(Self.committed(commit)))
            statuses.append(done.contains { $0.hasPrefix("notify STATUS") })
        }
        #expect(statuses == [false, true, false, true])
    }

    @Test func aNameRemovedWhileBeingWrittenIsForgotten() {
        var driver = Driver()
        driver.start()
        driver.send(.fileCreated(name: "w.png", entry: driver.facts().entry))
        #expect(driver.send(.scanned(InboxScan(names: ["w.png"]))).isEmpty)
        driver.send(.fileRemoved(name: "w.png"))
        // Written again under the same name by a writer whose creation event was lost: a scan now looks at it.
        #expect(driver.send(.scanned(InboxScan(names: ["w.png"]))) == ["inspect w.png"])
    }

    // MARK: The store

    @Test func aBusyStoreIsRetriedWithDoublingWaitsAndNewFilesWaitInTheInbox() throws {
        var driver = Driver(sweepInterval: .seconds(3600))
        driver.start()
        let claim = driver.takeToDecoder("a.png")
        var commit = driver.actions(.decoded(claim, contentHash: "h", Self.contact("Ann")))
        let busy = StoreError.busy("database is locked")
        var waits: [String] = []
        for _ in 0..<7 {
            let said = driver.send(.commitFailed(busy))
            let prefix = "log \(busy.message); trying again in "
            waits += said.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
            let wait = driver.core.nextDeadline! - driver.now
            #expect(driver.send(.fileCompleted(name: "new.png")).isEmpty, "new files wait while the store is busy")
            driver.wait(wait - .milliseconds(1))
            #expect(driver.send(.timerFired).isEmpty)
            driver.wait(.milliseconds(1))
            commit = driver.actions(.timerFired)
            #expect(commit.map(\.description) == ["commit a.png"])
        }
        #expect(
            waits
                == [
                    "1.0 seconds", "2.0 seconds", "4.0 seconds", "8.0 seconds", "16.0 seconds", "30.0 seconds",
                    "30.0 seconds",
                ].map { $0 + ", new files wait in the inbox" })
        let back = driver.send(try #require(Self.committed(commit)))
        #expect(
            Array(back.prefix(2)) == ["log the store is back; committed the 1 file(s) that waited", "archive a.png"])
        #expect(back.last == "inspect new.png", "taking files again")
    }

    @Test func aStoreFailureThatWaitingCannotMendStopsWithTheFilesStillClaimed() {
        var driver = Driver()
        driver.start()
        let claim = driver.takeToDecoder("a.png")
        driver.send(.decoded(claim, contentHash: "h", Self.contact("Ann")))
        let failure = StoreError.storageFailed("disk I/O error", diskFull: false)
        let actions = driver.send(.commitFailed(failure))
        #expect(actions == ["exit store failed: \(failure.message)"])
        #expect(!actions.contains { $0.hasPrefix("archive") || $0.hasPrefix("quarantine") })
        #expect(driver.send(.fileCompleted(name: "b.png")).isEmpty, "nothing after the exit")
    }

    // MARK: Stopping

    @Test func aStopWithNothingInHandExitsAtOnce() {
        var driver = Driver()
        driver.start()
        #expect(
            driver.send(.stopSignal) == [
                "notify STOPPING", "log stopping: finishing the files in hand", "exit stopped",
            ])
    }

    @Test func aStopFinishesTheFileInADecoderAndTakesNoNewOne() throws {
        var driver = Driver()
        driver.start()
        let claim = driver.takeToDecoder("a.png")
        #expect(driver.send(.stopSignal) == ["notify STOPPING", "log stopping: finishing the files in hand"])
        #expect(driver.core.isStopping)
        #expect(driver.send(.fileCompleted(name: "b.png")).isEmpty)
        let commit = driver.actions(.decoded(claim, contentHash: "h", Self.contact("Ann")))
        #expect(commit.map(\.description) == ["commit a.png"])
        let done = driver.send(try #require(Self.committed(commit)))
        #expect(done.first == "archive a.png")
        #expect(done.last == "exit stopped")
    }

    @Test func afterTheStopGraceFilesStillInADecoderStayClaimed() {
        var driver = Driver()
        driver.start()
        driver.takeToDecoder("a.png")
        driver.send(.stopSignal)
        driver.wait(.milliseconds(1499))
        #expect(driver.send(.timerFired).isEmpty)
        driver.wait(.milliseconds(1))
        #expect(
            driver.send(.timerFired) == [
                "log stopped with 1 file(s) still claimed; the next start takes them up", "exit stopped",
            ])
    }

    @Test func aSecondSignalStopsWithoutWaitingButASecondRequestDoesNot() {
        var signalled = Driver()
        signalled.start()
        signalled.takeToDecoder("a.png")
        signalled.send(.stopSignal)
        #expect(signalled.send(.stopSignal).last == "exit stopped")

        var asked = Driver()
        asked.start()
        asked.takeToDecoder("a.png")
        asked.send(.stopRequested)
        #expect(asked.send(.stopRequested).isEmpty)
    }

    @Test func aStopWhileTheStoreIsBusyLeavesTheDecidedFileClaimed() {
        var driver = Driver()
        driver.start()
        let claim = driver.takeToDecoder("a.png")
        driver.send(.decoded(claim, contentHash: "h", Self.contact("Ann")))
        driver.send(.commitFailed(.busy("locked")))
        #expect(
            driver.send(.stopSignal) == [
                "notify STOPPING", "log stopping: finishing the files in hand",
                "log stopped with 1 file(s) still claimed; the next start takes them up", "exit stopped",
            ])
    }

    @Test func aClaimWonAsTheStopCameIsLeftForTheNextStart() {
        var driver = Driver()
        driver.start()
        driver.send(.fileCompleted(name: "a.png"))
        driver.answer("a.png", .take(announced: true), driver.facts())
        #expect(driver.send(.stopRequested) == ["notify STOPPING", "log stopping: finishing the files in hand"])
        #expect(
            driver.send(.claimed(Self.claim("a.png"))) == [
                "log stopped with 1 file(s) still claimed; the next start takes them up", "exit stopped",
            ])
    }

    @Test func noSweepWhileStopping() {
        var driver = Driver()
        driver.start()
        driver.takeToDecoder("a.png")
        driver.send(.stopSignal)
        driver.wait(.seconds(1))
        #expect(!driver.send(.timerFired).contains("sweep"))
    }

    // MARK: Timers and the inbox

    @Test func pollModeRescansAtItsInterval() {
        var driver = Driver(inotify: false, pollInterval: .seconds(5))
        driver.start()
        #expect(driver.core.nextDeadline == driver.now + .seconds(2), "the first sweep comes first")
        driver.wait(.seconds(4))
        #expect(!driver.send(.timerFired).contains("scan"))
        driver.wait(.seconds(1))
        #expect(driver.send(.timerFired).contains("scan"))
        driver.wait(.seconds(4))
        #expect(!driver.send(.timerFired).contains("scan"))
        driver.wait(.seconds(1))
        #expect(driver.send(.timerFired).contains("scan"))
    }

    @Test func withInotifyThereIsNoPeriodicRescan() {
        var driver = Driver()
        driver.start()
        for _ in 0..<5 {
            driver.wait(.seconds(60))
            #expect(driver.send(.timerFired) == ["sweep"])
            driver.send(.swept(Adoption()))
        }
    }

    @Test func anInboxThatGoesAwayEndsTheLoop() {
        var driver = Driver()
        driver.start()
        #expect(driver.send(.inboxGone) == ["exit inbox gone"])
    }

    @Test func aDeadWatchersClaimThatCannotBeTakenUpIsSaidOnce() {
        var driver = Driver()
        driver.start()
        let failure = SystemCallError("renameat2", path: "/in/.processing/x/1.a.png", code: 13)
        driver.wait(.seconds(2))
        driver.send(.timerFired)
        let first = driver.send(.swept(Adoption(failures: [failure])))
        #expect(first.count == 1 && first[0].hasPrefix("log cannot take up a file left claimed"))
        driver.wait(.seconds(2))
        driver.send(.timerFired)
        #expect(driver.send(.swept(Adoption(failures: [failure]))).isEmpty)
    }
}
