import Foundation
import ProspectsCore

/// The store for teams whose scanners run on several machines: one PostgreSQL database.
///
/// Open one per thread: the connection belongs to one thread at a time. Concurrent writers on other connections
/// and machines are safe: the unique index and `ON CONFLICT` decide which sighting creates a prospect.
public final class PostgresStore: ProspectStore {
    let connection: PostgresConnection
    /// The migration opening this store made, if it was of an older schema.
    public private(set) var migration: SchemaMigration?

    /// Connects to `url` (`postgres://user:password@host:port/database`) and migrates the schema as needed.
    /// Fails within the connect timeout (5 s unless the URL sets `connect_timeout`) with `.unavailable`.
    public init(url: String, lockWait: Duration = StoreLocation.defaultLockWait) throws(StoreError) {
        connection = try PostgresConnection(url: url, lockWait: lockWait)
        migration = try PostgresSchema.migrate(connection, store: StoreLocation.redactPassword(in: url))
        connection.beforeCommit = ProspectSQL.moveGeneration
    }

    /// One round trip per sighting: the upsert, and for a known prospect its history row (a new prospect's first
    /// sighting lives in the prospect row itself, as in SQLite). `xmax = 0` holds only for a row version this
    /// statement inserted; an updated row carries our transaction id. With `explicitID`, a new prospect takes the
    /// id bound as `:id` (see `newIDs`), else the identity column's next value. A `plain` sighting
    /// (`ProspectSQL.isPlain`) has none of the optional columns, so nothing to fill in: a known prospect only
    /// counts the scan.
    private static func upsert(explicitID: Bool, plain: Bool) -> NumberedSQL<ProspectSQL.SightingValue> {
        let fillIn = """
            ,
                phone = COALESCE(prospects.phone, EXCLUDED.phone),
                organization = COALESCE(prospects.organization, EXCLUDED.organization),
                title = COALESCE(prospects.title, EXCLUDED.title),
                search_key = prospects.search_key
                    || CASE WHEN prospects.organization IS NULL AND EXCLUDED.organization IS NOT NULL
                        THEN chr(10) || :organizationKey::text ELSE '' END
                    || CASE WHEN prospects.title IS NULL AND EXCLUDED.title IS NOT NULL
                        THEN chr(10) || :titleKey::text ELSE '' END
            """
        return NumberedSQL(
            """
            WITH upserted AS (
                \(ProspectSQL.insertProspect(withID: explicitID, plain: plain))
                ON CONFLICT (email_key) DO UPDATE SET scan_count = prospects.scan_count + 1,
                    last_seen_at = GREATEST(prospects.last_seen_at, EXCLUDED.last_seen_at)\(plain ? "" : fillIn)
                RETURNING id, (xmax = 0) AS inserted
            ), scanned AS (
                INSERT INTO scans (prospect_id, source, seen_at, event, collected_by)
                SELECT id, :source, :seenAt, :event, :collectedBy FROM upserted WHERE NOT inserted
            )
            SELECT id, inserted FROM upserted
            """)
    }

    private static let upsertWithID = upsert(explicitID: true, plain: false)
    private static let upsertWithDefaultID = upsert(explicitID: false, plain: false)
    private static let plainUpsertWithID = upsert(explicitID: true, plain: true)
    private static let plainUpsertWithDefaultID = upsert(explicitID: false, plain: true)

    /// Content already in the ledger creates a prospect again only if it was deleted: no row when it is there, and
    /// then it only takes a phone or organisation it lacks (a prospect deleted and brought back by one card regains
    /// what a later card gave), in the same round trip. A SELECT rather than VALUES, so that a prospect that is
    /// there draws no id: PostgreSQL computes the default before ON CONFLICT looks, and a list imported again would
    /// use up an id a row. A `plain` sighting has nothing to give a prospect that is there.
    private static func insertIfDeleted(plain: Bool) -> NumberedSQL<ProspectSQL.SightingValue> {
        let fillIn = """
            WITH filled AS (
                UPDATE prospects
                SET phone = coalesce(phone, :phone::text), organization = coalesce(organization, :organization::text),
                    search_key = search_key || CASE WHEN organization IS NULL AND :organization::text IS NOT NULL
                        THEN chr(10) || :organizationKey::text ELSE '' END
                WHERE email_key = :emailKey::text
                    AND (phone IS NULL AND :phone::text IS NOT NULL
                        OR organization IS NULL AND :organization::text IS NOT NULL)
            )

            """
        return NumberedSQL(
            """
            \(plain ? "" : fillIn)INSERT INTO prospects (\(ProspectSQL.newProspectColumns(withID: false, plain: plain)))
            SELECT \(ProspectSQL.newProspectValues(withID: false, cast: true, plain: plain))
            WHERE NOT EXISTS (SELECT FROM prospects WHERE email_key = :emailKey::text)
            ON CONFLICT (email_key) DO NOTHING
            RETURNING id
            """)
    }

    private static let fullInsertIfDeleted = insertIfDeleted(plain: false)
    private static let plainInsertIfDeleted = insertIfDeleted(plain: true)

    private static let insertLedgerEntry = NumberedSQL<ProspectSQL.LedgerValue>(ProspectSQL.insertLedgerEntry)
    private static let insertOtherEmail = NumberedSQL<ProspectSQL.OtherEmailValue>(ProspectSQL.insertOtherEmail)
    private static let insertOtherPhone = NumberedSQL<ProspectSQL.OtherPhoneValue>(ProspectSQL.insertOtherPhone)
    private static let insertNote = NumberedSQL<ProspectSQL.NoteValue>(ProspectSQL.insertNote)

    private static let dialect = SQLDialect(
        searchKey: searchKey, contains: { "strpos(\($0), \($1)) > 0" },
        otherEmails: """
            (SELECT string_agg(email, chr(10) ORDER BY position) FROM other_emails WHERE prospect_id = prospects.id)
            """,
        otherPhones: """
            (SELECT string_agg(phone, chr(10) ORDER BY position) FROM other_phones WHERE prospect_id = prospects.id)
            """,
        tags: "(SELECT string_agg(tag, chr(10)) FROM tags WHERE prospect_id = prospects.id)")

    /// What `sighting` carries (`ProspectSQL.carriedStatements`), given to the prospect `id`; a known prospect's
    /// search key is written again when it gained notes or tags.
    private func recordCarried(of sighting: Sighting, id: Int64, created: Bool) throws(StoreError) {
        guard let carried = sighting.carried else { return }
        for (sql, values) in try ProspectSQL.carriedStatements(sighting, id: id, created: created) {
            try connection.execute(sql, values)
        }
        if !created && (!carried.notes.isEmpty || !carried.tags.isEmpty) { try refreshSearchKey(.id(id)) }
    }

    /// A new prospect's other addresses and phones, first note and what it carries, which live in tables of their
    /// own.
    private func recordDetails(of sighting: Sighting, id: Int64) throws(StoreError) {
        try recordCarried(of: sighting, id: id, created: true)
        for values in ProspectSQL.otherEmailValues(prospectID: id, sighting) {
            try connection.execute(Self.insertOtherEmail.text, Self.insertOtherEmail.values(values))
        }
        for values in ProspectSQL.otherPhoneValues(prospectID: id, sighting) {
            try connection.execute(Self.insertOtherPhone.text, Self.insertOtherPhone.values(values))
        }
        if let values = ProspectSQL.noteValues(prospectID: id, sighting) {
            try connection.execute(Self.insertNote.text, Self.insertNote.values(values))
        }
    }

    /// `NameKey.searchKey` of `text` in SQL: `lower`, then `translate` for the letters that fold to one letter and
    /// `replace` for the others (ß → ss), from `NameKey`'s table. `lower` follows the database's locale; the table
    /// folds upper-case Latin letters too, so a "C" database differs from SQLite only in other scripts' case.
    @Sendable private static func searchKey(_ text: String) -> String {
        var expression = "translate(lower(\(text)), '\(foldedScalars)', '\(foldedLetters)')"
        for (scalar, fold) in multipleFolds {
            expression = "replace(\(expression), '\(scalar)', '\(fold)')"
        }
        return expression
    }

    private static let folds = NameKey.folds.sorted { $0.key.value < $1.key.value }
    private static let foldedScalars = String(
        String.UnicodeScalarView(folds.filter { $0.value.unicodeScalars.count == 1 }.map(\.key)))
    private static let foldedLetters = folds.filter { $0.value.unicodeScalars.count == 1 }.map(\.value).joined()
    private static let multipleFolds = folds.filter { $0.value.unicodeScalars.count > 1 }

    /// `$1` ids from the prospects' identity sequence, ascending, or none when this role may not take them:
    /// an identity column's own default needs no privilege on its sequence, `nextval` does (USAGE or UPDATE).
    private static let newIDs = """
        SELECT nextval(sequence::regclass)
        FROM pg_catalog.pg_get_serial_sequence('prospects', 'id') AS sequence, generate_series(1, $1::integer)
        WHERE pg_catalog.has_sequence_privilege(sequence, 'USAGE, UPDATE')
        ORDER BY 1
        """

    /// Writes in one lock order, whatever the input order: first the ledger entries by content hash, then the
    /// sightings by email key (in input order for one key). Two writers that meet the same people in other
    /// orders (a list imported forwards and backwards) would otherwise each hold a row the other waits for: a
    /// deadlock, which PostgreSQL breaks after `deadlock_timeout` by failing one of them, and the retry meets
    /// the same order again. Only the order of the writes changes, not what they do: no write depends on another
    /// key's, and each key still sees its sightings in input order, so its first one inserts and the later ones
    /// are duplicates. Ids are taken up front, in input order, so that new prospects are numbered as in SQLite
    /// (when the role may not draw from the sequence, they are numbered in key order); content already in the
    /// ledger takes one only for a prospect it brings back, from the sequence as it comes, in key order.
    public func record(_ groups: [LedgeredSightings]) throws(StoreError) -> [LedgeredResult] {
        // Validate before BEGIN so that bad input is never mistaken for a retryable race.
        let prepared = try groups.map { group throws(StoreError) in
            (
                entry: try group.entry.map(ProspectSQL.ledgerValues),
                sightings: try group.sightings.map(ProspectSQL.upsertValues)
            )
        }
        let entryOrder = groups.indices.compactMap { index in groups[index].entry.map { ($0.contentHash, index) } }
            .sorted(by: Self.precedes).map(\.1)
        var sightingOrder: [(group: Int, sighting: Int, position: Int, key: String)] = []
        for (group, ledgered) in groups.enumerated() {
            for (sighting, value) in ledgered.sightings.enumerated() {
                sightingOrder.append((group, sighting, sightingOrder.count, value.emailKey))
            }
        }
        sightingOrder.sort { left, right in Self.precedes((left.key, left.position), (right.key, right.position)) }
        let events = EventSQL.names(in: groups)

        return try connection.transaction { () throws(StoreError) in
            try recordEventNames(events)
            // A concurrent transaction inserting the same hash makes this one wait on the unique index, and once
            // it commits, ON CONFLICT DO NOTHING affects no row: that content is loaded already, as is a hash
            // that an earlier group of this call entered.
            var loaded = Array(repeating: false, count: groups.count)
            for index in entryOrder {
                guard let entry = prepared[index].entry else { continue }
                loaded[index] =
                    try connection.execute(Self.insertLedgerEntry.text, Self.insertLedgerEntry.values(entry))
                    .affectedRows == 0
            }
            // Ids for the sightings that count, in input order; a loaded group's are drawn only for the few
            // prospects it restores, so that a list imported again does not use up an id a row.
            var idIndex: [Int] = []  // by position; -1 for a loaded group's sighting
            idIndex.reserveCapacity(sightingOrder.count)
            var counted = 0
            for (group, ledgered) in groups.enumerated() {
                for _ in ledgered.sightings {
                    idIndex.append(loaded[group] ? -1 : counted)
                    if !loaded[group] { counted += 1 }
                }
            }
            let ids =
                counted == 0
                ? []
                : try connection.execute(Self.newIDs, [.integer(Int64(counted))]).rows.map {
                    row throws(StoreError) in try row.int64(0)
                }
            guard ids.isEmpty || ids.count == counted else {
                throw .corrupt("asked for \(counted) ids, got \(ids.count)")
            }
            // Per group and sighting: a loaded group's restored id (.inserted) or nil, else the sighting's result.
            var outcomes = groups.map { Array(repeating: SightingResult?.none, count: $0.sightings.count) }
            for item in sightingOrder {
                var values = prepared[item.group].sightings[item.sighting]
                let plain = ProspectSQL.isPlain(groups[item.group].sightings[item.sighting])
                if loaded[item.group] {
                    let insert = plain ? Self.plainInsertIfDeleted : Self.fullInsertIfDeleted
                    let rows = try connection.execute(insert.text, insert.values(values)).rows
                    outcomes[item.group][item.sighting] = try rows.first.map { row throws(StoreError) in
                        let id = try row.int64(0)
                        try recordDetails(of: groups[item.group].sightings[item.sighting], id: id)
                        return .inserted(id: id)
                    }
                    continue
                }
                if !ids.isEmpty { values[.id] = .integer(ids[idIndex[item.position]]) }
                let upsert =
                    switch (plain, ids.isEmpty) {
                    case (false, true): Self.upsertWithDefaultID
                    case (false, false): Self.upsertWithID
                    case (true, true): Self.plainUpsertWithDefaultID
                    case (true, false): Self.plainUpsertWithID
                    }
                guard let row = try connection.execute(upsert.text, upsert.values(values)).rows.first else {
                    throw .corrupt("the upsert returned no row")
                }
                let id = try row.int64(0)
                let inserted = try row.bool(1)
                let sighting = groups[item.group].sightings[item.sighting]
                if inserted {
                    try recordDetails(of: sighting, id: id)
                } else {
                    try recordCarried(of: sighting, id: id, created: false)
                }
                outcomes[item.group][item.sighting] = inserted ? .inserted(id: id) : .duplicate(id: id)
            }
            return try groups.indices.map { group throws(StoreError) in
                if loaded[group] {
                    return .alreadyInLedger(
                        restored: outcomes[group].map { outcome in
                            if case .inserted(let id)? = outcome { id } else { nil }
                        })
                }
                let results = outcomes[group].compactMap(\.self)
                guard results.count == outcomes[group].count else { throw .corrupt("a sighting was not recorded") }
                return .recorded(results)
            }
        }
    }

    /// The one order every writer takes its locks in: keys by their UTF-8 bytes, which no locale or Unicode
    /// version changes (Swift's `<` treats canonically equivalent strings as equal), then input position.
    private static func precedes(_ left: (key: String, position: Int), _ right: (key: String, position: Int)) -> Bool {
        if left.key.utf8.elementsEqual(right.key.utf8) { return left.position < right.position }
        return left.key.utf8.lexicographicallyPrecedes(right.key.utf8)
    }

    public func ledgerEntry(contentHash: String) throws(StoreError) -> LedgerEntry? {
        try connection.execute(ProspectSQL.ledgerEntry, [.text(contentHash)]).rows.first
            .map(ProspectSQL.ledgerEntry(from:))
    }

    /// Read through a cursor a thousand rows at a time (`PostgresConnection.each`), never the whole list at once.
    public func forEach(_ query: ProspectQuery, _ body: (StoredProspect) -> Bool) throws(StoreError) {
        let (sql, values) = ProspectSQL.list(query, dialect: Self.dialect)
        try connection.each(sql, values) { row throws(StoreError) in body(try ProspectSQL.prospect(from: row)) }
    }

    public func prospect(_ reference: ProspectReference) throws(StoreError) -> StoredProspect? {
        let (sql, value) = ProspectSQL.select(reference, Self.dialect)
        return try prospects(sql, [value]).first
    }

    public func history(of id: Int64) throws(StoreError) -> [ScanRecord] {
        var records: [ScanRecord] = []
        for row in try connection.execute(ProspectSQL.history, [.integer(id)]).rows {
            records.append(try ProspectSQL.scanRecord(from: row))
        }
        return records
    }

    public func setContacted(_ reference: ProspectReference, _ contacted: Bool) throws(StoreError) -> Bool {
        let (sql, value) = ProspectSQL.update(reference, set: "contacted = $2")
        return try change(sql, [value, .bool(contacted)])
    }

    public func delete(_ reference: ProspectReference) throws(StoreError) -> Bool {
        let (sql, value) = ProspectSQL.delete(reference)
        return try change(sql, [value])
    }

    public func setReminder(_ reference: ProspectReference, at date: Date?) throws(StoreError) -> Bool {
        let (sql, value) = ProspectSQL.update(reference, set: "remind_at = $2")
        return try change(sql, [value, .date(date)])
    }

    public func due(at date: Date) throws(StoreError) -> [StoredProspect] {
        try prospects(ProspectSQL.due(Self.dialect), [.date(date)])
    }

    public func count() throws(StoreError) -> Int {
        guard let row = try connection.execute(ProspectSQL.count).rows.first else { return 0 }
        return try row.int(0)
    }

    public func count(_ query: ProspectQuery) throws(StoreError) -> Int {
        let (sql, values) = ProspectSQL.count(query, dialect: Self.dialect)
        guard let row = try connection.execute(sql, values).rows.first else { return 0 }
        return try row.int(0)
    }

    public func tabCounts(_ query: ProspectQuery) throws(StoreError) -> (everyone: Int, contacted: Int) {
        let (sql, values) = ProspectSQL.tabCounts(query, dialect: Self.dialect)
        guard let row = try connection.execute(sql, values).rows.first else { return (0, 0) }
        return (try row.int(0), try row.int(1))
    }

    public func addNote(_ reference: ProspectReference, _ text: String, author: String, at date: Date)
        throws(StoreError) -> Bool
    {
        let (sql, value) = ProspectSQL.addNote(reference)
        return try connection.transaction { () throws(StoreError) in
            guard try connection.execute(sql, [value, .date(date), .text(author), .text(text)]).affectedRows > 0 else {
                return false
            }
            try refreshSearchKey(reference)
            return true
        }
    }

    /// Writes the prospect's search key again from its fields, notes and tags, inside the caller's transaction.
    private func refreshSearchKey(_ reference: ProspectReference) throws(StoreError) {
        guard let stored = try prospect(reference) else { return }
        let key = ProspectSQL.searchKey(of: stored, notes: try notes(of: stored.id))
        try connection.execute(ProspectSQL.setSearchKey, [.text(key), .integer(stored.id)])
    }

    public func notes(of id: Int64) throws(StoreError) -> [ProspectNote] {
        try connection.execute(ProspectSQL.notes, [.integer(id)]).rows.map(ProspectSQL.note(from:))
    }

    public func setRating(_ reference: ProspectReference, _ rating: ProspectRating) throws(StoreError) -> Bool {
        let (sql, value) = ProspectSQL.update(reference, set: "rating = $2")
        return try change(sql, [value, .text(rating.rawValue)])
    }

    public func changeTags(_ reference: ProspectReference, adding: [String], removing: [String]) throws(StoreError)
        -> Bool
    {
        for tag in adding { try ProspectSQL.checkTag(tag) }
        let (select, value) = ProspectSQL.select(reference, Self.dialect)
        let (add, _) = ProspectSQL.addTag(reference)
        let (remove, _) = ProspectSQL.removeTag(reference)
        return try connection.transaction { () throws(StoreError) in
            guard !(try connection.execute(select, [value]).rows.isEmpty) else { return false }
            for tag in adding { try connection.execute(add, [value, .text(tag)]) }
            for tag in removing { try connection.execute(remove, [value, .text(tag)]) }
            try refreshSearchKey(reference)
            return true
        }
    }

    public func tags(of id: Int64) throws(StoreError) -> [String] {
        ProspectSQL.sortedTags(
            try connection.execute(ProspectSQL.tags, [.integer(id)]).rows.map { row throws(StoreError) in
                try row.text(0)
            })
    }

    private static let editProspect = NumberedSQL<ProspectSQL.EditValue>(ProspectSQL.editProspect)

    public func edit(_ reference: ProspectReference, _ edit: ProspectEdit) throws(StoreError) -> EditOutcome {
        try connection.transaction { () throws(StoreError) in
            // FOR UPDATE would need the select list without its aggregate; the UPDATE below locks the row, and a
            // concurrent change of the same key fails on the unique index.
            guard let stored = try prospect(reference) else { return .notFound }
            let (changed, values) = try ProspectSQL.editValues(stored, edit, notes: try notes(of: stored.id))
            if changed.key != stored.key, let other = try prospect(.email(changed.email)), other.id != stored.id {
                return .emailTaken(by: other)
            }
            try connection.execute(Self.editProspect.text, Self.editProspect.values(values))
            guard let edited = try prospect(.id(stored.id)) else { throw .corrupt("an edited prospect has no row") }
            return .edited(edited)
        }
    }

    public func renameSource(_ source: String, to newSource: String, prospects ids: [Int64]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        try connection.transaction { () throws(StoreError) in
            for id in ids {
                for sql in [ProspectSQL.renameFirstSource, ProspectSQL.renameScanSource] {
                    _ = try connection.execute(sql, [.integer(id), .text(source), .text(newSource)])
                }
            }
        }
    }

    /// Runs one UPDATE or DELETE in a transaction of its own, so that it moves the store's generation; true when it
    /// changed a row.
    private func change(_ sql: String, _ values: [SQLValue]) throws(StoreError) -> Bool {
        try connection.transaction { () throws(StoreError) in try connection.execute(sql, values).affectedRows > 0 }
    }

    public func changeCounter() throws(StoreError) -> Int64? {
        try connection.execute(ProspectSQL.generation).rows.first?.int64(0)
    }

    private func prospects(_ sql: String, _ values: [SQLValue]) throws(StoreError) -> [StoredProspect] {
        var prospects: [StoredProspect] = []
        for row in try connection.execute(sql, values).rows {
            prospects.append(try ProspectSQL.prospect(from: row))
        }
        return prospects
    }
}

@available(*, unavailable)
extension PostgresStore: Sendable {}
