import Foundation
import ProspectsCore

/// One sighting of a prospect: a code read from a file at a moment. The loader hands these to the store.
public struct Sighting: Sendable, Hashable {
    public let prospect: Prospect
    /// Where the code was read (a file path, or `FILE:LINE` for imported lists).
    public var source: String
    public var seenAt: Date
    /// Whether the prospect starts contacted when this sighting creates it (an imported list's own flag); a known
    /// prospect keeps the state the team gave it. Set in the insert itself, so it costs no transaction of its own.
    public var contactedIfNew: Bool
    /// When a prospect this sighting creates counts as added (an imported list's own date); nil: `seenAt`.
    public var createdAtIfNew: Date?
    /// The reminder a prospect this sighting creates starts with (an imported list's own).
    public var remindAtIfNew: Date?
    /// The event the card was collected at (a trade fair), when the collector said.
    public var event: String?
    /// Who collected the card; the author of the card's own note.
    public var collectedBy: String?
    /// The notes, rating, tags and history a lead exported from a store carries (our own export imported): a
    /// prospect this sighting creates takes them whole, and a known one gains its notes and tags and, where it has
    /// none, its rating and reminder.
    public let carried: CarriedLead?
    /// The prospect's dedup key and sort key, computed here rather than in the store so that the cost falls on
    /// the thread that makes sightings, not on the one that writes them (an import reads and writes at once).
    let emailKey: String
    let nameKey: String
    let sortKey: String
    let searchKey: String

    public init(
        prospect: Prospect, source: String, seenAt: Date, contactedIfNew: Bool = false, createdAtIfNew: Date? = nil,
        remindAtIfNew: Date? = nil, event: String? = nil, collectedBy: String? = nil, carried: CarriedLead? = nil
    ) {
        self.prospect = prospect
        self.carried = carried
        self.source = source
        self.seenAt = seenAt
        self.contactedIfNew = contactedIfNew
        self.createdAtIfNew = createdAtIfNew
        self.remindAtIfNew = remindAtIfNew
        self.event = event
        self.collectedBy = collectedBy
        emailKey = DedupKey.make(prospect.email)
        nameKey = NameKey.make(prospect.name)
        let foldedName = NameKey.fold(nameKey)
        sortKey = NameKey.sortKey(folded: foldedName)
        var notes = prospect.note.map { [$0] } ?? []
        if let carried { notes += carried.notes.map(\.text) }
        searchKey = SearchKey.make(
            foldedName: foldedName, emailKey: emailKey, organization: prospect.organization, title: prospect.title,
            notes: notes, tags: carried?.tags ?? [])
    }
}

/// What recording one sighting did.
public enum SightingResult: Sendable, Hashable {
    /// A new prospect was created with this id.
    case inserted(id: Int64)
    /// The address was already known: the existing prospect's scan count and last-seen time were updated.
    case duplicate(id: Int64)
}

/// A file the ingest pipeline has finished with, recorded in the same transaction as its prospects so that a
/// crash between committing and moving the file is recognised on restart instead of counted twice. An imported
/// list's entry commits with its last rows, and says `inserted`: a list enters the ledger once it is whole.
public struct LedgerEntry: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable, Codable {
        case inserted, duplicate, rejected
    }

    /// Lowercase hex SHA-256 of the file's bytes.
    public var contentHash: String
    /// The file's name when it was processed (informational).
    public var fileName: String
    public var outcome: Outcome
    /// How many prospects the file carried (inserted or duplicate).
    public var prospects: Int
    public var processedAt: Date

    public init(contentHash: String, fileName: String, outcome: Outcome, prospects: Int, processedAt: Date) {
        self.contentHash = contentHash
        self.fileName = fileName
        self.outcome = outcome
        self.prospects = prospects
        self.processedAt = processedAt
    }
}

/// Sightings that commit together with the ledger entry of the content they came from: one file's codes.
public struct LedgeredSightings: Sendable, Hashable {
    /// Marks the content as loaded; nil for sightings no ledger tracks (the rows of a list before its last ones).
    public var entry: LedgerEntry?
    public var sightings: [Sighting] {
        didSet { prepared = nil }
    }
    /// The sightings with their values made ahead (`init(entry:prepared:)`); SQLite makes them when this is nil.
    private(set) var prepared: PreparedSightings?

    public init(entry: LedgerEntry?, sightings: [Sighting]) {
        self.entry = entry
        self.sightings = sightings
    }

    public init(entry: LedgerEntry?, prepared: PreparedSightings) {
        self.entry = entry
        self.sightings = prepared.sightings
        self.prepared = prepared
    }

    /// Equal when the entries and sightings are: the prepared values are made from the sightings.
    public static func == (left: Self, right: Self) -> Bool {
        left.entry == right.entry && left.sightings == right.sightings
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entry)
        hasher.combine(sightings)
    }
}

/// What recording one `LedgeredSightings` did.
public enum LedgeredResult: Sendable, Hashable {
    /// The sightings were recorded, in order, and the entry written.
    case recorded([SightingResult])
    /// The ledger already held this content (committed earlier, by another process, or earlier in the same
    /// call): nothing was counted again. A prospect of it deleted since is created anew, so that scanning a card
    /// again brings back someone deleted, and one still there takes a phone or organisation it lacks; `restored`
    /// has, per sighting, the new id, or nil for a prospect still there.
    case alreadyInLedger(restored: [Int64?])
}

/// Where the prospects live. Implementations: `SQLiteStore` (embedded default) and `PostgresStore`.
///
/// A store object belongs to one thread at a time; open one per thread or process. Every write is one
/// transaction, and the unique index on the dedup key keeps one prospect per address across processes.
public protocol ProspectStore: AnyObject {
    /// Records every group in one transaction, in order; a known key updates scan count, last seen and history.
    /// A group whose ledger entry's content hash the ledger already holds records nothing. The check and the
    /// write are one atomic step, so two processes handed identical bytes at the same moment count them once.
    func record(_ groups: [LedgeredSightings]) throws(StoreError) -> [LedgeredResult]
    /// The ledger entry for a file's content hash, if that content was processed before.
    func ledgerEntry(contentHash: String) throws(StoreError) -> LedgerEntry?

    /// The prospects `query` picks, handed to `body` one at a time in its order, until it returns false: so that
    /// `export` holds one prospect at a time, not the list.
    func forEach(_ query: ProspectQuery, _ body: (StoredProspect) -> Bool) throws(StoreError)
    func prospect(_ reference: ProspectReference) throws(StoreError) -> StoredProspect?
    func history(of id: Int64) throws(StoreError) -> [ScanRecord]
    /// Renames the source `source` to `newSource` in the scan history of prospects `ids` (their first sighting and
    /// later scans): an uploaded picture's path once it is archived, instead of the `.incoming/` one it was read at.
    func renameSource(_ source: String, to newSource: String, prospects ids: [Int64]) throws(StoreError)
    /// Returns false when no prospect matches.
    func setContacted(_ reference: ProspectReference, _ contacted: Bool) throws(StoreError) -> Bool
    /// Returns false when no prospect matches.
    func delete(_ reference: ProspectReference) throws(StoreError) -> Bool
    /// Sets (or with nil clears) a reminder. Returns false when no prospect matches.
    func setReminder(_ reference: ProspectReference, at date: Date?) throws(StoreError) -> Bool
    /// Prospects whose reminder is at or before `date`, earliest first.
    func due(at date: Date) throws(StoreError) -> [StoredProspect]
    /// How many prospects the store holds.
    func count() throws(StoreError) -> Int
    /// How many prospects `query` picks, its limit and offset aside: counted by the database, as `forEach` selects.
    func count(_ query: ProspectQuery) throws(StoreError) -> Int
    /// How many prospects `query` picks, its tab, limit and offset aside, and how many of those are contacted: the
    /// list's tab counts, in one statement.
    func tabCounts(_ query: ProspectQuery) throws(StoreError) -> (everyone: Int, contacted: Int)
    /// The store's change generation: a number that moves with every committed write transaction of any connection
    /// or process (once per transaction, not per row), cheap enough to read on every request; nil for a store that
    /// has none.
    func changeCounter() throws(StoreError) -> Int64?

    /// Appends a note to the prospect; false when there is no such prospect.
    func addNote(_ reference: ProspectReference, _ text: String, author: String, at date: Date) throws(StoreError)
        -> Bool
    /// The prospect's notes, oldest first.
    func notes(of id: Int64) throws(StoreError) -> [ProspectNote]
    /// False when there is no such prospect.
    func setRating(_ reference: ProspectReference, _ rating: ProspectRating) throws(StoreError) -> Bool
    /// Adds and removes tags (a tag it has, or lacks, is no error); false when there is no such prospect.
    func changeTags(_ reference: ProspectReference, adding: [String], removing: [String]) throws(StoreError) -> Bool
    /// The prospect's tags, in byte order.
    func tags(of id: Int64) throws(StoreError) -> [String]
    /// The migration opening the store made, if it was of an older schema (`SchemaMigration`).
    var migration: SchemaMigration? { get }
    /// Changes the prospect's own fields, in one transaction.
    func edit(_ reference: ProspectReference, _ edit: ProspectEdit) throws(StoreError) -> EditOutcome
}

/// A store whose write transaction can span several `record` calls, for bulk loads: SQLite, where each commit
/// rewrites every page of the dedup index that its rows touched. PostgreSQL commits each `record` on its own, as it
/// orders a transaction's keys to rule out deadlocks and runs a transaction that lost a race again.
public protocol TransactionGrouping: ProspectStore {
    /// Runs `body` in one write transaction, which the `record` calls it makes join; rolls it back if `body` throws.
    func inOneTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T
}

extension ProspectStore {
    public func changeCounter() throws(StoreError) -> Int64? { nil }

    public var migration: SchemaMigration? { nil }

    public func forEach(
        filter: ProspectFilter, sort: ProspectSort, reverse: Bool, _ body: (StoredProspect) -> Bool
    ) throws(StoreError) {
        try forEach(ProspectQuery(filter: filter, sort: sort, reverse: reverse), body)
    }

    /// Every prospect `query` picks, in its order.
    public func list(_ query: ProspectQuery) throws(StoreError) -> [StoredProspect] {
        var prospects: [StoredProspect] = []
        try forEach(query) { prospect in
            prospects.append(prospect)
            return true
        }
        return prospects
    }

    /// Every prospect the filter selects, in the order asked for.
    public func list(filter: ProspectFilter, sort: ProspectSort, reverse: Bool) throws(StoreError) -> [StoredProspect] {
        try list(ProspectQuery(filter: filter, sort: sort, reverse: reverse))
    }

    /// Records sightings no ledger tracks, in one transaction, in order.
    public func record(_ sightings: [Sighting]) throws(StoreError) -> [SightingResult] {
        guard case .recorded(let results)? = try record([LedgeredSightings(entry: nil, sightings: sightings)]).first
        else { throw .corrupt("the store skipped sightings that carry no ledger entry") }
        return results
    }
}
