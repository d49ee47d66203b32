import Foundation
import ProspectStore
import ProspectsCore
import QRDecoding

/// What loading one file did, known once its transaction committed.
public struct FileResult: Sendable {
    /// What happened to one code of the file.
    public enum CodeStatus: Sendable, Hashable {
        case inserted(id: Int64)
        case duplicate(id: Int64?)
        case rejected(ScanError)

        /// The prospect's id, when the code was a contact the store knows.
        public var id: Int64? {
            switch self {
            case .inserted(let id): id
            case .duplicate(let id): id
            case .rejected: nil
            }
        }
    }

    public enum Outcome: String, Sendable, Hashable {
        /// At least one new prospect.
        case inserted
        /// Valid contacts, all known already (or this very content was loaded before).
        case duplicate
        /// No valid contact: see `outcome.rejection`.
        case rejected
    }

    public var file: FileOutcome
    /// One status per code of `file.codes`, in the same order.
    public var codes: [CodeStatus]
    /// True when the ledger showed this content was committed before: nothing was counted again, and only its
    /// prospects deleted since were added back (as `.inserted`).
    public var alreadyLoaded: Bool

    public var outcome: Outcome {
        if codes.contains(where: { if case .inserted = $0 { true } else { false } }) { return .inserted }
        if codes.contains(where: { if case .duplicate = $0 { true } else { false } }) { return .duplicate }
        return .rejected
    }

    public var inserted: Int { codes.count(where: { if case .inserted = $0 { true } else { false } }) }
    public var duplicates: Int { codes.count(where: { if case .duplicate = $0 { true } else { false } }) }
}

/// Running totals of a load, for the summary line.
public struct LoadTotals: Sendable, Hashable, Codable {
    public var files = 0
    public var inserted = 0
    public var duplicates = 0
    /// Files that yielded no prospect.
    public var rejected = 0
    /// Codes that were not contacts, in files that also had valid ones.
    public var rejectedCodes = 0

    public init() {}

    mutating func add(_ result: FileResult) {
        files += 1
        inserted += result.inserted
        duplicates += result.duplicates
        if result.outcome == .rejected {
            rejected += 1
        } else {
            rejectedCodes += result.codes.count(where: { if case .rejected = $0 { true } else { false } })
        }
    }
}

/// Loads file outcomes into a store in batched transactions, deduplicating on the email key.
///
/// A file's sightings and its ledger entry commit in one transaction, so "in the store" and "in the ledger"
/// are the same fact. Content the ledger already holds is reported as duplicates and not recorded again, which
/// makes loading a file twice (a restart after a crash, a second `ingest` of one folder, or two watchers handed
/// copies of one file at the same moment) change nothing. The store checks the ledger inside the transaction.
public final class Loader {
    private let store: any ProspectStore
    private let batchSize: Int
    private let now: () -> Date
    private let context: CollectionContext
    private var pending: [FileOutcome] = []
    private var pendingSightings = 0
    public private(set) var totals = LoadTotals()
    /// The store's rosters, which a badge holding an attendee ID is looked up in; nil for a store without them.
    private let rosters: (any RosterStore)?

    /// `batchSize` is the number of sightings per transaction; 1 commits every file on its own (watch mode).
    /// Every sighting records `context`'s event and collector.
    public init(
        store: any ProspectStore, batchSize: Int = 512, context: CollectionContext = .init(),
        now: @escaping () -> Date = Date.init
    ) {
        self.store = store
        rosters = store as? any RosterStore
        self.context = context
        self.batchSize = max(1, batchSize)
        self.now = now
    }

    /// Queues a file; when the batch is full it is committed and `report` is called for each of its files.
    public func add(_ file: FileOutcome, report: (FileResult) throws -> Void) throws {
        let file = try resolvingBadges(file)
        pending.append(file)
        pendingSightings += max(1, file.prospects.count)
        if pendingSightings >= batchSize { try flush(report: report) }
    }

    /// `file` with each code that is no contact but a badge holding an attendee ID (`BadgeCode`) looked up in the
    /// roster of the run's event: a known attendee with an address becomes the prospect the code stands for (a new
    /// scan of the lead of that address, if there is one); an ID the roster does not hold is `badgeNotInRoster`, so
    /// the picture is quarantined as any other code that is no contact. An event without a roster changes nothing.
    private func resolvingBadges(_ file: FileOutcome) throws -> FileOutcome {
        guard let event = context.event, let rosters,
            file.codes.contains(where: { if case .failure(.unsupportedPayload) = $0.result { true } else { false } })
        else { return file }
        // Read for each file that needs it, so that a long `watch` follows `event edit --badge-pattern`.
        let pattern = try rosters.event(named: event)?.badgePattern.flatMap { try? BadgePattern($0) }
        var file = file
        for index in file.codes.indices {
            guard case .failure(.unsupportedPayload) = file.codes[index].result,
                let id = BadgeCode.attendeeID(in: file.codes[index].symbol.text, pattern: pattern)
            else { continue }
            guard let attendee = try rosters.rosterEntry(event: event, attendeeID: id) else {
                if try rosters.hasRoster(event) {
                    file.codes[index].result = .failure(.badgeNotInRoster(id: id, event: event))
                }
                continue
            }
            guard let email = attendee.email else {
                file.codes[index].result = .failure(.badgeAttendeeWithoutEmail(id: id, event: event))
                continue
            }
            var prospect = Prospect(
                name: attendee.name, email: email, phone: attendee.phone, organization: attendee.organization)
            prospect.title = attendee.title
            file.codes[index].result = .success(prospect)
        }
        return file
    }

    /// Commits what is queued and reports each file, in the order they were added.
    public func flush(report: (FileResult) throws -> Void) throws {
        guard !pending.isEmpty else { return }
        let files = pending
        pending = []
        pendingSightings = 0

        let seenAt = now()
        // One group per file with prospects. Only content that adds to the store is entered in the ledger: a
        // rejected file leaves the store untouched, and processing it again is harmless (it is rejected again).
        // Two cards of one person in one picture (a badge and its reflection, or a two-line code beside a MECARD)
        // are one sighting, not two scans; what one card lacks (a phone, say) is taken from the other.
        let prospectsByFile = files.map { file in
            var place: [String: Int] = [:]
            var people: [Prospect] = []
            for prospect in file.prospects {
                let key = DedupKey.make(prospect.email)
                if let at = place[key] {
                    if people[at].phone == nil {
                        people[at].phone = prospect.phone
                        people[at].otherPhones = prospect.otherPhones
                    }
                    people[at].organization = people[at].organization ?? prospect.organization
                } else {
                    place[key] = people.count
                    people.append(prospect)
                }
            }
            return people
        }
        var groups: [LedgeredSightings] = []
        for (file, prospects) in zip(files, prospectsByFile) where !prospects.isEmpty {
            let entry = file.contentHash.map { hash in
                LedgerEntry(
                    contentHash: hash, fileName: file.path, outcome: .inserted, prospects: prospects.count,
                    processedAt: seenAt)
            }
            let sightings = prospects.map { context.sighting($0, source: file.path, seenAt: seenAt) }
            groups.append(LedgeredSightings(entry: entry, sightings: sightings))
        }
        let results = groups.isEmpty ? [] : try store.record(groups)
        guard results.count == groups.count else {
            throw StoreError.corrupt("the store returned \(results.count) results for \(groups.count) files")
        }

        var nextGroup = results.makeIterator()
        for (file, prospects) in zip(files, prospectsByFile) {
            // Per valid code: what the store did, or nil when it counted nothing (content loaded before).
            var recorded: [SightingResult?] = []
            var alreadyLoaded = false
            switch prospects.isEmpty ? nil : nextGroup.next() {
            case .recorded(let results)?: recorded = results
            case .alreadyInLedger(let restored)?:
                alreadyLoaded = true
                recorded = restored.map { $0.map { .inserted(id: $0) } }
            case nil: break
            }
            guard recorded.count == prospects.count else {
                throw StoreError.corrupt(
                    "the store returned \(recorded.count) results for \(prospects.count) sightings")
            }
            var sightingResults = recorded.makeIterator()
            var earlierCards: [String: Int64?] = [:]
            let codes: [FileResult.CodeStatus] = file.codes.map { code in
                switch code.result {
                case .failure(let error): return .rejected(error)
                case .success(let prospect):
                    let key = DedupKey.make(prospect.email)
                    if let id = earlierCards[key] { return .duplicate(id: id) }
                    let status: FileResult.CodeStatus =
                        switch sightingResults.next() {
                        case .inserted(let id)??: .inserted(id: id)
                        case .duplicate(let id)??: .duplicate(id: id)
                        // Content loaded before: nothing was recorded, so the id is looked up, for the report.
                        case .some(nil), nil: .duplicate(id: try? store.prospect(.email(prospect.email))?.id)
                        }
                    earlierCards[key] = .some(status.id)  // kept even when the id is nil
                    return status
                }
            }
            let result = FileResult(file: file, codes: codes, alreadyLoaded: alreadyLoaded)
            totals.add(result)
            try report(result)
        }
    }
}
