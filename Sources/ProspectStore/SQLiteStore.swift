import Foundation
import ProspectsCore

/// The embedded default store: one SQLite file that several processes on one machine may share.
///
/// Open one per thread: the connection and its cached statements belong to one thread at a time.
public final class SQLiteStore: TransactionGrouping {
    let database: SQLiteDatabase
    /// The migration opening this store made, if it was of an older schema.
    public private(set) var migration: SchemaMigration?

    /// Opens the store at `path`, creating the file (mode 0600) when `create` allows, and migrating its schema as
    /// needed. Throws `.unavailable` when the folder or (without `create`) the file does not exist, or the file is
    /// no prospect store; `.schemaTooNew` for a newer program's file.
    public init(path: String, create: Bool = true, lockWait: Duration = StoreLocation.defaultLockWait)
        throws(StoreError)
    {
        do throws(StoreError) {
            database = try SQLiteDatabase(path: path, create: create, lockWait: lockWait)
            try SQLiteSchema.refuseForeign(database)
            // Before WAL: switching writes the file's first page, and the page size is fixed from then on.
            try database.execute("PRAGMA page_size = \(SQLiteSchema.pageSize)")
            try database.enableWAL()
            migration = try SQLiteSchema.migrate(database)
            database.beforeCommit = ProspectSQL.moveGeneration
            try database.addFunction(Self.foldFunction, NameKey.searchKey)
            try database.addContainsFunction(Self.containsFunction)
        } catch .corrupt(let why) {
            // Opening is the first read, so a file that is no database (`--store list.csv`) fails here.
            throw .unavailable("cannot open \(path) as a prospect store: \(why)")
        }
    }

    /// A new key inserts with scan count 1 and the id `nextID()` handed out; a known key counts the scan and moves
    /// the last-seen time forward, never back, and a phone or organisation the prospect lacked is taken from this
    /// card (a later MECARD fills in what a two-line code did not carry), but what is known is never overwritten.
    /// The last inserted rowid says which happened: the update path leaves it as it was. One statement, without
    /// `RETURNING` (which costs every insert much of its time), so that bulk imports stay close to the `sqlite3`
    /// shell's own `.import`; a known key then looks up its id, from the index alone.
    private static let upsert =
        insertNew + """
             ON CONFLICT (email_key) DO UPDATE SET scan_count = scan_count + 1, \
            last_seen_at = max(last_seen_at, excluded.last_seen_at), phone = coalesce(phone, excluded.phone), \
            organization = coalesce(organization, excluded.organization), title = coalesce(title, excluded.title), \
            search_key = search_key \
            || CASE WHEN organization IS NULL AND excluded.organization IS NOT NULL THEN char(10) || :organizationKey \
            ELSE '' END \
            || CASE WHEN title IS NULL AND excluded.title IS NOT NULL THEN char(10) || :titleKey ELSE '' END
            """

    /// A prospect deleted since its content was loaded comes back; a known one only takes a phone or organisation
    /// it lacks (a prospect deleted and brought back by one card regains what a later card gave): that content was
    /// counted once already. As in `upsert`, the last inserted rowid says which happened.
    private static let restore =
        insertNew + """
             ON CONFLICT (email_key) DO UPDATE SET phone = coalesce(phone, excluded.phone), \
            organization = coalesce(organization, excluded.organization), search_key = search_key \
            || CASE WHEN organization IS NULL AND excluded.organization IS NOT NULL THEN char(10) || :organizationKey \
            ELSE '' END \
            WHERE phone IS NULL AND excluded.phone IS NOT NULL \
            OR organization IS NULL AND excluded.organization IS NOT NULL
            """

    /// A new prospect from `ProspectSQL.upsertValues` with its id, for `upsert` and `restore`.
    private static let insertNew = ProspectSQL.insertProspect(withID: true)

    /// `upsert` for a sighting that gives none of the optional columns (`ProspectSQL.isPlain`): there is nothing to
    /// fill in, so a known prospect only counts the scan.
    private static let plainUpsert =
        ProspectSQL.insertProspect(withID: true, plain: true) + """
             ON CONFLICT (email_key) DO UPDATE SET scan_count = scan_count + 1, \
            last_seen_at = max(last_seen_at, excluded.last_seen_at)
            """

    /// `restore` for a plain sighting (`ProspectSQL.isPlain`): it has nothing a known prospect could take.
    private static let plainRestore =
        ProspectSQL.insertProspect(withID: true, plain: true) + " ON CONFLICT (email_key) DO NOTHING"

    private static let idOfKey = "SELECT id FROM prospects WHERE email_key = :emailKey"

    /// A repeat's scan, bound from the row its upsert was (`ProspectSQL.SightingValue`), `:id` the prospect's.
    private static let insertScan = """
        INSERT INTO scans (prospect_id, source, seen_at, event, collected_by) \
        VALUES (:id, :source, :seenAt, :event, :collectedBy)
        """

    private typealias SightingValue = ProspectSQL.SightingValue

    /// `NameKey.searchKey` in this connection's SQL, for `ProspectQuery.search`.
    private static let foldFunction = "prospects_fold"

    /// `instr(haystack, needle) > 0` by `memchr` (`SQLiteDatabase.addContainsFunction`), for `ProspectQuery.search`.
    private static let containsFunction = "prospects_contains"

    /// The other addresses and phones come in the primary key's order, (prospect_id, position), the index SQLite
    /// reads them by.
    private static let dialect = SQLDialect(
        searchKey: { "\(foldFunction)(\($0))" }, contains: { "\(containsFunction)(\($0), \($1))" },
        otherEmails: "(SELECT group_concat(email, char(10)) FROM other_emails WHERE prospect_id = prospects.id)",
        otherPhones: "(SELECT group_concat(phone, char(10)) FROM other_phones WHERE prospect_id = prospects.id)",
        tags: "(SELECT group_concat(tag, char(10)) FROM tags WHERE prospect_id = prospects.id)",
        // A LIMIT keeps SQLite from flattening the subquery and dropping its ORDER BY; -1 is no limit.
        scanOrder: { "ORDER BY \($0) LIMIT -1" })

    /// A new prospect's other addresses and phones, first note and what it carries, which live in tables of their
    /// own.
    private func recordDetails(of sighting: Sighting, id: Int64) throws(StoreError) {
        try recordCarried(of: sighting, id: id, created: true)
        if !sighting.prospect.otherEmails.isEmpty {
            let insert = try database.statement(ProspectSQL.insertOtherEmail, ProspectSQL.OtherEmailValue.self)
            for values in ProspectSQL.otherEmailValues(prospectID: id, sighting) { try insert.execute(values.values) }
        }
        if !sighting.prospect.otherPhones.isEmpty {
            let insert = try database.statement(ProspectSQL.insertOtherPhone, ProspectSQL.OtherPhoneValue.self)
            for values in ProspectSQL.otherPhoneValues(prospectID: id, sighting) { try insert.execute(values.values) }
        }
        if let values = ProspectSQL.noteValues(prospectID: id, sighting) {
            try database.statement(ProspectSQL.insertNote, ProspectSQL.NoteValue.self).execute(values.values)
        }
    }

    /// What `sighting` carries (`ProspectSQL.carriedStatements`), given to the prospect `id`; a known prospect's
    /// search key is written again when it gained notes or tags.
    private func recordCarried(of sighting: Sighting, id: Int64, created: Bool) throws(StoreError) {
        guard let carried = sighting.carried else { return }
        for (sql, values) in try ProspectSQL.carriedStatements(sighting, id: id, created: created) {
            try database.execute(sql, values)
        }
        if !created && (!carried.notes.isEmpty || !carried.tags.isEmpty) { try refreshSearchKey(.id(id)) }
    }

    public func record(_ groups: [LedgeredSightings]) throws(StoreError) -> [LedgeredResult] {
        let values = SightingValue.self
        let fullUpsert = try database.statement(Self.upsert, values)
        let fullRestore = try database.statement(Self.restore, values)
        let plainUpsert = try database.statement(Self.plainUpsert, values)
        let plainRestore = try database.statement(Self.plainRestore, values)
        let idOfKey = try database.statement(Self.idOfKey, values)
        let insertScan = try database.statement(Self.insertScan, values)
        let insertLedger = try database.statement(ProspectSQL.insertLedgerEntry, ProspectSQL.LedgerValue.self)
        // Made before the write lock is taken, when the caller has not made them ahead.
        let prepared = groups.map { group in group.prepared ?? PreparedSightings(group.sightings) }
        let events = EventSQL.names(in: groups)
        return try database.writeTransaction { () throws(StoreError) in
            try recordEventNames(events)
            var nextID = try nextID()
            var groupResults: [LedgeredResult] = []
            groupResults.reserveCapacity(groups.count)
            for (group, prepared) in zip(groups, prepared) {
                let upserts = try prepared.upserts.get()
                if let entry = group.entry {
                    // The entry goes first: under the write lock, a conflict means the content is loaded already.
                    try insertLedger.execute(try ProspectSQL.ledgerValues(entry).values)
                    if insertLedger.changes == 0 {
                        var restored: [Int64?] = []
                        for row in prepared.sightings.indices {
                            let restore = prepared.plain[row] ? plainRestore : fullRestore
                            restore.lastInsertedRowID = 0
                            try restore.execute(upserts, row: row, setting: .id, to: nextID)
                            if restore.lastInsertedRowID == nextID {
                                if prepared.hasDetails[row] {
                                    try recordDetails(of: prepared.sightings[row], id: nextID)
                                }
                                restored.append(nextID)
                                nextID += 1
                            } else {
                                restored.append(nil)
                            }
                        }
                        groupResults.append(.alreadyInLedger(restored: restored))
                        continue
                    }
                }
                var results: [SightingResult] = []
                results.reserveCapacity(prepared.sightings.count)
                for row in prepared.sightings.indices {
                    let upsert = prepared.plain[row] ? plainUpsert : fullUpsert
                    // Ids start at 1; a scan or ledger row inserted before may have had the rowid `nextID`.
                    upsert.lastInsertedRowID = 0
                    try upsert.execute(upserts, row: row, setting: .id, to: nextID)
                    if upsert.lastInsertedRowID == nextID {
                        if prepared.hasDetails[row] { try recordDetails(of: prepared.sightings[row], id: nextID) }
                        results.append(.inserted(id: nextID))
                        nextID += 1
                        continue
                    }
                    guard let id = try idOfKey.firstInteger(upserts, row: row) else {
                        throw .corrupt("a conflicting key has no row")
                    }
                    // The first sighting lives in the prospect row; `scans` holds the later ones.
                    try insertScan.execute(upserts, row: row, setting: .id, to: id)
                    // Only a row that carries something is copied out of the batch for it.
                    if prepared.sightings[row].carried != nil {
                        try recordCarried(of: prepared.sightings[row], id: id, created: false)
                    }
                    results.append(.duplicate(id: id))
                }
                groupResults.append(.recorded(results))
            }
            return groupResults
        }
    }

    public func inOneTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try database.writeTransaction(body)
    }

    public func ledgerEntry(contentHash: String) throws(StoreError) -> LedgerEntry? {
        try database.query(ProspectSQL.ledgerEntry, [.text(contentHash)], map: ProspectSQL.ledgerEntry(from:)).first
    }

    public func forEach(_ query: ProspectQuery, _ body: (StoredProspect) -> Bool) throws(StoreError) {
        let (sql, values) = ProspectSQL.list(query, dialect: Self.dialect)
        try database.each(sql, values) { row throws(StoreError) in
            body(try ProspectSQL.prospect(from: row))
        }
    }

    public func prospect(_ reference: ProspectReference) throws(StoreError) -> StoredProspect? {
        let (sql, value) = ProspectSQL.select(reference, Self.dialect)
        return try database.query(sql, [value], map: ProspectSQL.prospect).first
    }

    public func history(of id: Int64) throws(StoreError) -> [ScanRecord] {
        try database.query(ProspectSQL.history, [.integer(id)], map: ProspectSQL.scanRecord)
    }

    public func renameSource(_ source: String, to newSource: String, prospects ids: [Int64]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        let statements = [
            try database.statement(ProspectSQL.renameFirstSource), try database.statement(ProspectSQL.renameScanSource),
        ]
        try database.writeTransaction { () throws(StoreError) in
            for id in ids {
                for statement in statements { try statement.execute([.integer(id), .text(source), .text(newSource)]) }
            }
        }
    }

    public func setContacted(_ reference: ProspectReference, _ contacted: Bool) throws(StoreError) -> Bool {
        let (sql, value) = ProspectSQL.update(reference, set: "contacted = $2")
        return try change(sql, [value, .bool(contacted)])
    }

    public func delete(_ reference: ProspectReference) throws(StoreError) -> Bool {
        let (sql, value) = ProspectSQL.delete(reference)
        let delete = try database.statement(sql)
        return try database.writeTransaction { () throws(StoreError) in
            // Remember the highest id before it can disappear, so that it is never handed out again.
            try database.execute(
                "UPDATE id_high_water SET last_id = max(last_id, coalesce((SELECT max(id) FROM prospects), 0))")
            try delete.execute([value])
            return delete.changes > 0
        }
    }

    /// The id the next new prospect gets: above every id in use or ever deleted, as PostgreSQL's identity
    /// column does, so that an id someone is looking at never comes to mean another person. Read once per
    /// transaction, under its write lock.
    private func nextID() throws(StoreError) -> Int64 {
        let sql = "SELECT max(coalesce((SELECT max(id) FROM prospects), 0), (SELECT max(last_id) FROM id_high_water))"
        let highest = try database.query(sql) { row throws(StoreError) in try row.optionalInt64(0) }
        return (highest.first.flatMap { $0 } ?? 0) + 1
    }

    public func setReminder(_ reference: ProspectReference, at date: Date?) throws(StoreError) -> Bool {
        let (sql, value) = ProspectSQL.update(reference, set: "remind_at = $2")
        return try change(sql, [value, .date(date)])
    }

    public func due(at date: Date) throws(StoreError) -> [StoredProspect] {
        try database.query(ProspectSQL.due(Self.dialect), [.date(date)], map: ProspectSQL.prospect)
    }

    public func count() throws(StoreError) -> Int {
        try database.query(ProspectSQL.count) { row throws(StoreError) in try row.int(0) }.first ?? 0
    }

    public func count(_ query: ProspectQuery) throws(StoreError) -> Int {
        let (sql, values) = ProspectSQL.count(query, dialect: Self.dialect)
        return try database.query(sql, values) { row throws(StoreError) in try row.int(0) }.first ?? 0
    }

    public func tabCounts(_ query: ProspectQuery) throws(StoreError) -> (everyone: Int, contacted: Int) {
        let (sql, values) = ProspectSQL.tabCounts(query, dialect: Self.dialect)
        return try database.query(sql, values) { row throws(StoreError) in (try row.int(0), try row.int(1)) }.first
            ?? (0, 0)
    }

    public func changeCounter() throws(StoreError) -> Int64? {
        try database.query(ProspectSQL.generation) { row throws(StoreError) in try row.int64(0) }.first
    }

    public func addNote(_ reference: ProspectReference, _ text: String, author: String, at date: Date)
        throws(StoreError) -> Bool
    {
        try ProspectSQL.rejectNUL(text)
        try ProspectSQL.rejectNUL(author)
        let (sql, value) = ProspectSQL.addNote(reference)
        let statement = try database.statement(sql)
        return try database.writeTransaction { () throws(StoreError) in
            try statement.execute([value, .date(date), .text(author), .text(text)])
            guard statement.changes > 0 else { return false }
            try refreshSearchKey(reference)
            return true
        }
    }

    /// Writes the prospect's search key again from its fields, notes and tags, inside the caller's transaction.
    private func refreshSearchKey(_ reference: ProspectReference) throws(StoreError) {
        guard let stored = try prospect(reference) else { return }
        let key = ProspectSQL.searchKey(of: stored, notes: try notes(of: stored.id))
        try database.execute(ProspectSQL.setSearchKey, [.text(key), .integer(stored.id)])
    }

    public func notes(of id: Int64) throws(StoreError) -> [ProspectNote] {
        try database.query(ProspectSQL.notes, [.integer(id)], map: ProspectSQL.note(from:))
    }

    public func setRating(_ reference: ProspectReference, _ rating: ProspectRating) throws(StoreError) -> Bool {
        let (sql, value) = ProspectSQL.update(reference, set: "rating = $2")
        return try change(sql, [value, .text(rating.rawValue)])
    }

    public func changeTags(_ reference: ProspectReference, adding: [String], removing: [String]) throws(StoreError)
        -> Bool
    {
        for tag in adding { try ProspectSQL.checkTag(tag) }
        for tag in removing { try ProspectSQL.rejectNUL(tag) }
        let (select, value) = ProspectSQL.select(reference, Self.dialect)
        let (add, _) = ProspectSQL.addTag(reference)
        let (remove, _) = ProspectSQL.removeTag(reference)
        return try database.writeTransaction { () throws(StoreError) in
            guard try !database.query(select, [value], map: { _ throws(StoreError) in () }).isEmpty else {
                return false
            }
            for tag in adding { try database.execute(add, [value, .text(tag)]) }
            for tag in removing { try database.execute(remove, [value, .text(tag)]) }
            try refreshSearchKey(reference)
            return true
        }
    }

    public func tags(of id: Int64) throws(StoreError) -> [String] {
        ProspectSQL.sortedTags(
            try database.query(ProspectSQL.tags, [.integer(id)]) { row throws(StoreError) in
                try row.text(0)
            })
    }

    public func edit(_ reference: ProspectReference, _ edit: ProspectEdit) throws(StoreError) -> EditOutcome {
        let update = try database.statement(ProspectSQL.editProspect, ProspectSQL.EditValue.self)
        return try database.writeTransaction { () throws(StoreError) in
            guard let stored = try prospect(reference) else { return .notFound }
            let (changed, values) = try ProspectSQL.editValues(stored, edit, notes: try notes(of: stored.id))
            if changed.key != stored.key, let other = try prospect(.email(changed.email)), other.id != stored.id {
                return .emailTaken(by: other)
            }
            try update.execute(values.values)
            guard let edited = try prospect(.id(stored.id)) else { throw .corrupt("an edited prospect has no row") }
            return .edited(edited)
        }
    }

    /// Runs one UPDATE or DELETE in its own write transaction; true when it changed a row.
    private func change(_ sql: String, _ values: [SQLValue]) throws(StoreError) -> Bool {
        let statement = try database.statement(sql)
        return try database.writeTransaction { () throws(StoreError) in
            try statement.execute(values)
            return statement.changes > 0
        }
    }
}

@available(*, unavailable)
extension SQLiteStore: Sendable {}
