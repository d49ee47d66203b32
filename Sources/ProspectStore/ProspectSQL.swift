import Foundation
import ProspectsCore

/// SQL text and rules shared by both stores, so that they filter, sort and update identically. A statement with
/// one or two values writes them `$1`, `$2`, which both databases understand; one with more names them (`:name`,
/// see `SQLParameter`), which SQLite binds as they are and PostgreSQL through `NumberedSQL`.
enum ProspectSQL {
    /// The schema version this program writes; stores refuse newer ones with `.schemaTooNew`.
    static let schemaVersion = 8

    /// Moves the store's change generation (`store_generation`, schema 5): run once by every write transaction,
    /// just before it commits, so that a reader that sees the new value sees the write too.
    static let moveGeneration = "UPDATE store_generation SET value = value + 1"

    /// The store's change generation.
    static let generation = "SELECT value FROM store_generation"

    /// Reads no row, and fails unless `prospects` has version 1's columns: a table of that name found with no
    /// schema version may be another program's, which the version 2 migration would fail on halfway.
    static let version1Shape = "SELECT id, name, email, email_key, contacted, created_at FROM prospects LIMIT 0"

    /// The error for a `prospects` table that `version1Shape` failed on; `place` names the database.
    static func foreignProspectsTable(in place: String, _ failure: StoreError, otherwise: String) -> StoreError {
        guard case .database(_, let message, _) = failure else { return failure }
        return .unsupportedDatabase(
            "\(place) has a table named prospects that is not a prospect store's (\(message)): \(otherwise)")
    }

    /// The columns of `prospects` a `StoredProspect` is read from; the raw value is the column's place in
    /// `columns(_:)`, which `prospect(from:)` reads it by. `otherEmails` and `otherPhones` are the store's aggregates
    /// of `other_emails` and `other_phones`.
    enum Column: Int, CaseIterable {
        case id, name, email, emailKey, phone, organization, contacted, createdAt, lastSeenAt, scanCount
        case firstSource, remindAt, title, familyName, givenName, additionalNames, honorificPrefix, honorificSuffix
        case rating, firstEvent, firstCollectedBy, otherEmails, tags, otherPhones

        var name: String {
            switch self {
            case .id: "id"
            case .name: "name"
            case .email: "email"
            case .emailKey: "email_key"
            case .phone: "phone"
            case .organization: "organization"
            case .contacted: "contacted"
            case .createdAt: "created_at"
            case .lastSeenAt: "last_seen_at"
            case .scanCount: "scan_count"
            case .firstSource: "first_source"
            case .remindAt: "remind_at"
            case .title: "title"
            case .familyName: "family_name"
            case .givenName: "given_name"
            case .additionalNames: "additional_names"
            case .honorificPrefix: "honorific_prefix"
            case .honorificSuffix: "honorific_suffix"
            case .rating: "rating"
            case .firstEvent: "first_event"
            case .firstCollectedBy: "first_collected_by"
            case .otherEmails: "other_emails"
            case .tags: "tags"
            case .otherPhones: "other_phones"
            }
        }

        /// The name parts' columns, in `NameParts.components` order.
        static let nameParts: [Column] = [
            .familyName, .givenName, .additionalNames, .honorificPrefix, .honorificSuffix,
        ]
    }

    /// The select list of `prospect(from:)` in `dialect`.
    static func columns(_ dialect: SQLDialect) -> String {
        Column.allCases.map { column in
            switch column {
            case .otherEmails: "\(dialect.otherEmails) AS other_emails"
            case .tags: "\(dialect.tags) AS tags"
            case .otherPhones: "\(dialect.otherPhones) AS other_phones"
            default: column.name
            }
        }.joined(separator: ", ")
    }

    /// The values of both stores' upserts of a sighting (`upsertValues`); `id` is the new prospect's id, when the
    /// store chooses it.
    enum SightingValue: Int, SQLParameter {
        case name, nameKey, email, emailKey, phone, organization, seenAt, source, contacted, createdAt, remindAt, id
        case title, familyName, givenName, additionalNames, honorificPrefix, honorificSuffix, event, collectedBy
        case sortKey, searchKey
        /// The sighting's organisation and title folded (`SearchKey`): what a known prospect's key gains when the
        /// sighting fills them in.
        case organizationKey, titleKey

        /// What PostgreSQL calls its type, where it cannot infer it.
        var postgresType: String {
            switch self {
            case .contacted: "boolean"
            case .seenAt, .createdAt, .remindAt, .id: "bigint"
            default: "text"
            }
        }
    }

    /// What a new prospect's column takes: a value of the sighting, or a constant.
    enum NewValue {
        case sighting(SightingValue)
        case constant(String)
    }

    /// A new prospect's row, column by column, as both stores insert it from a sighting.
    static let newProspect: [(column: Column, value: NewValue)] = [
        (.name, .sighting(.name)), (.emailKey, .sighting(.emailKey)), (.email, .sighting(.email)),
        (.phone, .sighting(.phone)), (.organization, .sighting(.organization)), (.contacted, .sighting(.contacted)),
        (.createdAt, .sighting(.createdAt)), (.lastSeenAt, .sighting(.seenAt)), (.scanCount, .constant("1")),
        (.firstSource, .sighting(.source)), (.remindAt, .sighting(.remindAt)), (.title, .sighting(.title)),
        (.familyName, .sighting(.familyName)), (.givenName, .sighting(.givenName)),
        (.additionalNames, .sighting(.additionalNames)), (.honorificPrefix, .sighting(.honorificPrefix)),
        (.honorificSuffix, .sighting(.honorificSuffix)), (.firstEvent, .sighting(.event)),
        (.firstCollectedBy, .sighting(.collectedBy)),
    ]

    /// The columns of `newProspect` that a sighting fills only when its card or row gives them: a plain sighting
    /// (`isPlain`) leaves every one NULL, so its statements leave them out.
    static let optionalColumns: Set<Column> = [
        .phone, .organization, .remindAt, .title, .familyName, .givenName, .additionalNames, .honorificPrefix,
        .honorificSuffix,
    ]

    /// True when `sighting` gives none of `optionalColumns`, as most imported rows (a name and an address) and
    /// two-line codes do. Its upsert can then take the plain statements: what the full ones do with these columns
    /// (take a phone, organisation or title a known prospect lacks, and add them to its search key) changes nothing
    /// when they are NULL. Fewer values to bind and a shorter statement: a bulk import writes one a row.
    static func isPlain(_ sighting: Sighting) -> Bool {
        sighting.prospect.phone == nil && sighting.prospect.organization == nil && sighting.prospect.title == nil
            && sighting.prospect.nameParts == nil && sighting.remindAtIfNew == nil
    }

    /// Whether `sighting` is plain (`isPlain`), and whether a prospect it creates has rows in other tables (other
    /// addresses, other phones, a note: `recordDetails`).
    static func facts(of sighting: Sighting) -> (plain: Bool, hasDetails: Bool) {
        (
            isPlain(sighting),
            !sighting.prospect.otherEmails.isEmpty || !sighting.prospect.otherPhones.isEmpty
                || sighting.prospect.note != nil || sighting.carried != nil
        )
    }

    /// The column list of a new prospect's INSERT (`name_key`, `sort_key` and `search_key` are no `Column`: nothing
    /// reads them back), with `id` first when the store gives it; without `optionalColumns` when `plain`.
    static func newProspectColumns(withID: Bool, plain: Bool = false) -> String {
        ((withID ? ["id"] : []) + ["name_key", "sort_key", "search_key"]
            + newProspect(plain: plain).map(\.column.name)).joined(separator: ", ")
    }

    /// The values of a new prospect's INSERT, in `newProspectColumns` order; `cast` adds PostgreSQL's types, which
    /// a SELECT list needs.
    static func newProspectValues(withID: Bool, cast: Bool = false, plain: Bool = false) -> String {
        func value(_ parameter: SightingValue) -> String {
            parameter.placeholder + (cast ? "::\(parameter.postgresType)" : "")
        }
        let values = newProspect(plain: plain).map { entry in
            switch entry.value {
            case .sighting(let parameter): value(parameter)
            case .constant(let text): text
            }
        }
        return ((withID ? [value(.id)] : []) + [value(.nameKey), value(.sortKey), value(.searchKey)] + values)
            .joined(separator: ", ")
    }

    /// `newProspect`, without `optionalColumns` when `plain`.
    private static func newProspect(plain: Bool) -> [(column: Column, value: NewValue)] {
        plain ? newProspect.filter { !optionalColumns.contains($0.column) } : newProspect
    }

    /// `INSERT INTO prospects (…) VALUES (…)` of a sighting's new prospect, with its id when `withID`; without
    /// `optionalColumns` when `plain`.
    static func insertProspect(withID: Bool, plain: Bool = false) -> String {
        "INSERT INTO prospects (\(newProspectColumns(withID: withID, plain: plain))) "
            + "VALUES (\(newProspectValues(withID: withID, plain: plain)))"
    }

    /// How many prospects `query` picks (its limit and offset aside), and the values of its `$n`.
    static func count(_ query: ProspectQuery, dialect: SQLDialect) -> (sql: String, values: [SQLValue]) {
        let (condition, values) = condition(query, dialect: dialect)
        return ("SELECT count(*) FROM prospects\(condition)", values)
    }

    /// How many prospects `query` picks and how many of those are contacted (its tab, limit and offset aside), in
    /// one statement: one pass over the table when `query` has conditions; without any, the whole table's count is
    /// SQLite's b-tree count, cheaper than a pass, so only the contacted are scanned for.
    static func tabCounts(_ query: ProspectQuery, dialect: SQLDialect) -> (sql: String, values: [SQLValue]) {
        var all = query
        all.filter = .everyone
        let (condition, values) = condition(all, dialect: dialect)
        guard condition.isEmpty else {
            return ("SELECT count(*), count(CASE WHEN contacted THEN 1 END) FROM prospects\(condition)", values)
        }
        return ("SELECT (SELECT count(*) FROM prospects), count(*) FROM prospects WHERE contacted = TRUE", values)
    }

    /// The prospects `query` picks, and the values of its `$n`, numbered as conditions are added.
    static func list(_ query: ProspectQuery, dialect: SQLDialect) -> (sql: String, values: [SQLValue]) {
        var (condition, values) = condition(query, dialect: dialect)
        func parameter(_ value: SQLValue) -> String {
            values.append(value)
            return "$\(values.count)"
        }
        // The id breaks ties so that the order is total and identical in both stores.
        let order =
            switch (query.sort, query.reverse) {
            case (.name, false): "sort_key ASC, name_key ASC, id ASC"
            case (.name, true): "sort_key DESC, name_key DESC, id DESC"
            case (.recent, false): "created_at DESC, id DESC"
            case (.recent, true): "created_at ASC, id ASC"
            }
        var page = ""
        if let limit = query.limit { page += " LIMIT \(parameter(.integer(Int64(max(0, limit)))))" }
        if query.offset > 0 {
            // SQLite takes OFFSET only after a LIMIT, and the two spell "no limit" differently.
            if query.limit == nil { page += " LIMIT \(parameter(.integer(Int64.max)))" }
            page += " OFFSET \(parameter(.integer(Int64(query.offset))))"
        }
        guard query.limit != nil else {
            return ("SELECT \(columns(dialect)) FROM prospects\(condition) ORDER BY \(order)\(page)", values)
        }
        // A page: its ids first, so that the other addresses and tags are gathered for its rows only, not for every
        // row the sort takes in.
        // Most recent first, the rows are read newest id first where the store can be told so (`scanOrder`): ids
        // mostly follow creation, so the top-N sort then rejects nearly every row instead of taking each one in.
        var source = "prospects\(condition)"
        if query.sort == .recent, let scan = dialect.scanOrder(query.reverse ? "id ASC" : "id DESC") {
            source = "(SELECT id, created_at FROM prospects\(condition) \(scan))"
        }
        return (
            "SELECT \(columns(dialect)) FROM prospects WHERE id IN (SELECT id FROM \(source) "
                + "ORDER BY \(order)\(page)) ORDER BY \(order)", values
        )
    }

    /// The WHERE clause (with its leading space, or "") that picks what `query` picks, and the values of its `$n`.
    private static func condition(_ query: ProspectQuery, dialect: SQLDialect) -> (sql: String, values: [SQLValue]) {
        var values: [SQLValue] = []
        func parameter(_ value: SQLValue) -> String {
            values.append(value)
            return "$\(values.count)"
        }
        var conditions: [String] = []
        // TRUE and FALSE are keywords in SQLite (as 1 and 0) and in PostgreSQL.
        switch query.filter {
        case .everyone: break
        case .contacted: conditions.append("contacted = TRUE")
        case .uncontacted: conditions.append("contacted = FALSE")
        }
        if let rating = query.rating { conditions.append("rating = \(parameter(.text(rating.rawValue)))") }
        if let tag = query.tag {
            let needle = parameter(.text(NameKey.searchKey(tag)))
            conditions.append(
                "EXISTS (SELECT 1 FROM tags WHERE prospect_id = prospects.id AND \(dialect.searchKey("tag")) = \(needle))"
            )
        }
        for (column, value) in [("event", query.event), ("collected_by", query.collectedBy)] {
            guard let value else { continue }
            let needle = parameter(.text(value))
            conditions.append(
                "(first_\(column) = \(needle) OR EXISTS (SELECT 1 FROM scans WHERE prospect_id = prospects.id "
                    + "AND \(column) = \(needle)))")
        }
        if let search = query.search {
            // One stored, folded key per prospect (`SearchKey`): nothing is folded per row.
            for word in NameKey.searchKey(search).split(whereSeparator: \.isWhitespace) {
                conditions.append(dialect.contains("search_key", parameter(.text(String(word)))))
            }
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), values)
    }

    /// The condition that picks the prospect `reference` names (always parameter `$1`) and the value to bind.
    static func matching(_ reference: ProspectReference) -> (condition: String, value: SQLValue) {
        switch reference {
        case .email(let email): ("email_key = $1", .text(DedupKey.make(email)))
        case .id(let id): ("id = $1", .integer(id))
        }
    }

    static func select(_ reference: ProspectReference, _ dialect: SQLDialect) -> (sql: String, value: SQLValue) {
        let (condition, value) = matching(reference)
        return ("SELECT \(columns(dialect)) FROM prospects WHERE \(condition)", value)
    }

    static func update(_ reference: ProspectReference, set assignment: String) -> (sql: String, value: SQLValue) {
        let (condition, value) = matching(reference)
        return ("UPDATE prospects SET \(assignment) WHERE \(condition)", value)
    }

    static func delete(_ reference: ProspectReference) -> (sql: String, value: SQLValue) {
        let (condition, value) = matching(reference)
        return ("DELETE FROM prospects WHERE \(condition)", value)
    }

    static func due(_ dialect: SQLDialect) -> String {
        "SELECT \(columns(dialect)) FROM prospects WHERE remind_at <= $1 ORDER BY remind_at ASC, id ASC"
    }
    static let count = "SELECT count(*) FROM prospects"
    /// Every sighting of a prospect, oldest first: the first one is kept in the prospect row (`first_source`,
    /// `created_at`), later ones in `scans`, which saves a bulk import one insert per new prospect.
    static let history = """
        SELECT first_source, created_at, 0 AS seq, first_event, first_collected_by FROM prospects WHERE id = $1 \
        UNION ALL SELECT source, seen_at, id, event, collected_by FROM scans WHERE prospect_id = $1 \
        ORDER BY 2 ASC, 3 ASC
        """
    /// `renameSource`'s two statements: $1 the prospect, $2 the old source, $3 the new one.
    static let renameFirstSource = "UPDATE prospects SET first_source = $3 WHERE id = $1 AND first_source = $2"
    static let renameScanSource = "UPDATE scans SET source = $3 WHERE prospect_id = $1 AND source = $2"

    /// The values of `editProspect`.
    enum EditValue: Int, SQLParameter {
        case id, name, nameKey, sortKey, email, emailKey, phone, organization, title, searchKey
    }

    static let editProspect = """
        UPDATE prospects SET name = :name, name_key = :nameKey, sort_key = :sortKey, email = :email, \
        email_key = :emailKey, phone = :phone, organization = :organization, title = :title, \
        search_key = :searchKey WHERE id = :id
        """

    /// `stored` with `edit` applied, and the values that write it; `notes` are the prospect's, for its search key.
    static func editValues(_ stored: StoredProspect, _ edit: ProspectEdit, notes: [ProspectNote]) throws(StoreError)
        -> (prospect: Prospect, values: SQLArguments<EditValue>)
    {
        var prospect = stored.prospect
        if let name = edit.name { prospect.name = name }
        if let email = edit.email { prospect.email = email }
        if let phone = edit.phone { prospect.phone = phone }
        if let organization = edit.organization { prospect.organization = organization }
        if let title = edit.title { prospect.title = title }
        for text in [prospect.name, prospect.email, prospect.phone, prospect.organization, prospect.title] {
            try rejectNUL(text)
        }
        let nameKey = NameKey.make(prospect.name)
        var values = SQLArguments<EditValue>()
        values[.id] = .integer(stored.id)
        values[.name] = .text(prospect.name)
        values[.nameKey] = .text(nameKey)
        values[.sortKey] = .text(NameKey.sortKey(nameKey))
        values[.email] = .text(prospect.email)
        values[.emailKey] = .text(prospect.key)
        values[.phone] = .text(prospect.phone)
        values[.organization] = .text(prospect.organization)
        values[.title] = .text(prospect.title)
        values[.searchKey] = .text(
            SearchKey.make(
                nameKey: nameKey, emailKey: prospect.key, organization: prospect.organization, title: prospect.title,
                notes: notes.map(\.text), tags: stored.tags))
        return (prospect, values)
    }

    /// The search key of `stored` with its `notes` (`SearchKey`), as a note or a tag changed it.
    static func searchKey(of stored: StoredProspect, notes: [ProspectNote]) -> String {
        SearchKey.make(
            nameKey: NameKey.make(stored.prospect.name), emailKey: stored.key,
            organization: stored.prospect.organization, title: stored.prospect.title, notes: notes.map(\.text),
            tags: stored.tags)
    }

    static let setSearchKey = "UPDATE prospects SET search_key = $1 WHERE id = $2"

    /// What a migration computes every search key from: id, name key, email key, organisation, title, then the
    /// notes and the tags each joined by line feeds (the key folds them one by one all the same); `joined` is the
    /// database's aggregate that joins a column's texts with line feeds.
    static func searchKeyFields(joined: (String) -> String) -> String {
        """
        SELECT id, name_key, email_key, organization, title, \
        (SELECT \(joined("text")) FROM notes WHERE prospect_id = prospects.id), \
        (SELECT \(joined("tag")) FROM tags WHERE prospect_id = prospects.id) FROM prospects
        """
    }

    /// The search key of a row of `searchKeyFields`.
    static func searchKey(fromFields row: some DatabaseRow) throws(StoreError) -> String {
        SearchKey.make(
            nameKey: try row.text(1), emailKey: try row.text(2), organization: try row.optionalText(3),
            title: try row.optionalText(4), notes: try row.optionalText(5).map { [$0] } ?? [],
            tags: try row.optionalText(6).map { [$0] } ?? [])
    }

    /// The values of `insertOtherEmail`.
    enum OtherEmailValue: Int, SQLParameter {
        case prospectID, position, email
    }

    static let insertOtherEmail =
        "INSERT INTO other_emails (prospect_id, position, email) VALUES (:prospectID, :position, :email)"

    /// A new prospect's other addresses, numbered from 1.
    static func otherEmailValues(prospectID: Int64, _ sighting: Sighting) -> [SQLArguments<OtherEmailValue>] {
        sighting.prospect.otherEmails.enumerated().map { position, email in
            var values = SQLArguments<OtherEmailValue>()
            values[.prospectID] = .integer(prospectID)
            values[.position] = .integer(Int64(position + 1))
            values[.email] = .text(email)
            return values
        }
    }

    /// The values of `insertOtherPhone`.
    enum OtherPhoneValue: Int, SQLParameter {
        case prospectID, position, phone
    }

    static let insertOtherPhone =
        "INSERT INTO other_phones (prospect_id, position, phone) VALUES (:prospectID, :position, :phone)"

    /// A new prospect's other phones, numbered from 1.
    static func otherPhoneValues(prospectID: Int64, _ sighting: Sighting) -> [SQLArguments<OtherPhoneValue>] {
        sighting.prospect.otherPhones.enumerated().map { position, phone in
            var values = SQLArguments<OtherPhoneValue>()
            values[.prospectID] = .integer(prospectID)
            values[.position] = .integer(Int64(position + 1))
            values[.phone] = .text(phone)
            return values
        }
    }

    /// The values of `insertNote` and `addNote`.
    enum NoteValue: Int, SQLParameter {
        case prospectID, writtenAt, author, text
    }

    static let insertNote =
        "INSERT INTO notes (prospect_id, written_at, author, text) VALUES (:prospectID, :writtenAt, :author, :text)"

    /// A new prospect's first note: the card's own, written by its collector when it was seen.
    static func noteValues(prospectID: Int64, _ sighting: Sighting) -> SQLArguments<NoteValue>? {
        guard let note = sighting.prospect.note else { return nil }
        var values = SQLArguments<NoteValue>()
        values[.prospectID] = .integer(prospectID)
        values[.writtenAt] = .date(sighting.seenAt)
        values[.author] = .text(sighting.collectedBy ?? "")
        values[.text] = .text(note)
        return values
    }

    /// Appends a note to the prospect `$1` names: `$2` its time, `$3` its author, `$4` its text.
    static func addNote(_ reference: ProspectReference) -> (sql: String, value: SQLValue) {
        let (condition, value) = matching(reference)
        return (
            """
            INSERT INTO notes (prospect_id, written_at, author, text) \
            SELECT id, CAST($2 AS bigint), CAST($3 AS text), CAST($4 AS text) FROM prospects WHERE \(condition)
            """, value
        )
    }

    static let notes = "SELECT written_at, author, text FROM notes WHERE prospect_id = $1 ORDER BY written_at, id"

    static func note(from row: some DatabaseRow) throws(StoreError) -> ProspectNote {
        ProspectNote(writtenAt: try row.date(0), author: try row.text(1), text: try row.text(2))
    }

    /// Gives the prospect `$1` names the tag `$2`, unless it has it.
    static func addTag(_ reference: ProspectReference) -> (sql: String, value: SQLValue) {
        let (condition, value) = matching(reference)
        return (
            """
            INSERT INTO tags (prospect_id, tag) SELECT id, CAST($2 AS text) FROM prospects WHERE \(condition) \
            ON CONFLICT (prospect_id, tag) DO NOTHING
            """, value
        )
    }

    /// Takes the tag `$2` from the prospect `$1` names.
    static func removeTag(_ reference: ProspectReference) -> (sql: String, value: SQLValue) {
        let (condition, value) = matching(reference)
        return (
            "DELETE FROM tags WHERE tag = $2 AND prospect_id IN (SELECT id FROM prospects WHERE \(condition))", value
        )
    }

    static let tags = "SELECT tag FROM tags WHERE prospect_id = $1"

    /// Refuses a tag that is blank or holds a line break (tags are read back joined by line feeds), or NUL.
    static func checkTag(_ tag: String) throws(StoreError) {
        try rejectNUL(tag)
        if tag.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) || tag.allSatisfy(\.isWhitespace) {
            throw .database(code: 0, message: "a tag must be one line of text, not blank", sql: nil)
        }
    }

    /// Tags in byte order, which no collation changes.
    static func sortedTags(_ tags: [String]) -> [String] {
        tags.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The columns of `files`, the ledger, and the values of `insertLedgerEntry`; the raw value is the column's
    /// place in `ledgerEntry`'s select list.
    enum LedgerValue: Int, SQLParameter {
        case contentHash, fileName, outcome, prospects, processedAt

        var column: String {
            switch self {
            case .contentHash: "content_hash"
            case .fileName: "file_name"
            case .outcome: "outcome"
            case .prospects: "prospects"
            case .processedAt: "processed_at"
            }
        }
    }

    static let ledgerEntry =
        "SELECT \(LedgerValue.allCases.map(\.column).joined(separator: ", ")) FROM files WHERE content_hash = $1"
    static let insertLedgerEntry = """
        INSERT INTO files (\(LedgerValue.allCases.map(\.column).joined(separator: ", "))) \
        VALUES (\(LedgerValue.placeholders.joined(separator: ", "))) ON CONFLICT (content_hash) DO NOTHING
        """

    /// The values of both stores' upsert of `sighting`: its prospect, its keys, when and where it was seen, and
    /// what a prospect it creates starts with. The store sets `.id` when it chooses the new prospect's id.
    static func upsertValues(_ sighting: Sighting) throws(StoreError) -> SQLArguments<SightingValue> {
        var values = SQLArguments<SightingValue>()
        try setUpsertValues(sighting, in: &values)
        return values
    }

    /// `upsertValues` set in `values`, which may be a row of `PackedArguments`; unset ones stay NULL.
    static func setUpsertValues(_ sighting: Sighting, in values: inout some SQLArgumentSink<SightingValue>)
        throws(StoreError)
    {
        let prospect = sighting.prospect
        // Field by field, not through array literals: this runs for every row an import writes.
        try rejectNUL(prospect.name)
        try rejectNUL(prospect.email)
        try rejectNUL(prospect.phone)
        try rejectNUL(prospect.organization)
        try rejectNUL(sighting.source)
        try rejectNUL(prospect.title)
        try rejectNUL(prospect.note)
        try rejectNUL(sighting.event)
        try rejectNUL(sighting.collectedBy)
        values.set(.name, text: prospect.name)
        values.set(.nameKey, text: sighting.nameKey)
        values.set(.sortKey, text: sighting.sortKey)
        values.set(.searchKey, text: sighting.searchKey)
        values.set(.email, text: prospect.email)
        values.set(.emailKey, text: sighting.emailKey)
        values.set(.phone, text: prospect.phone)
        values.set(.organization, text: prospect.organization)
        values.set(.seenAt, date: sighting.seenAt)
        values.set(.source, text: sighting.source)
        values.set(.contacted, bool: sighting.contactedIfNew)
        values.set(.createdAt, date: sighting.createdAtIfNew ?? sighting.seenAt)
        values.set(.remindAt, date: sighting.remindAtIfNew)
        // The rest is NULL unless given (most imported rows give none of it).
        if let title = prospect.title {
            values.set(.title, text: title)
            values.set(.titleKey, text: NameKey.searchKey(title))
        }
        if let organization = prospect.organization {
            values.set(.organizationKey, text: NameKey.searchKey(organization))
        }
        if let parts = prospect.nameParts {
            for part in parts.components { try rejectNUL(part) }
            values.set(.familyName, text: parts.family)
            values.set(.givenName, text: parts.given)
            values.set(.additionalNames, text: parts.additional)
            values.set(.honorificPrefix, text: parts.prefix)
            values.set(.honorificSuffix, text: parts.suffix)
        }
        for email in prospect.otherEmails { try rejectNUL(email) }
        for phone in prospect.otherPhones { try rejectNUL(phone) }
        if let event = sighting.event { values.set(.event, text: event) }
        if let collectedBy = sighting.collectedBy { values.set(.collectedBy, text: collectedBy) }
    }

    static func ledgerValues(_ entry: LedgerEntry) throws(StoreError) -> SQLArguments<LedgerValue> {
        try rejectNUL(entry.contentHash)
        try rejectNUL(entry.fileName)
        var values = SQLArguments<LedgerValue>()
        values[.contentHash] = .text(entry.contentHash)
        values[.fileName] = .text(entry.fileName)
        values[.outcome] = .text(entry.outcome.rawValue)
        values[.prospects] = .integer(Int64(entry.prospects))
        values[.processedAt] = .date(entry.processedAt)
        return values
    }

    /// PostgreSQL cannot store U+0000 in text; both stores refuse it in what they record, so that they behave alike.
    /// (The payload parser already rejects control characters; this guards everything else that reaches the store.)
    static func rejectNUL(_ text: String?) throws(StoreError) {
        guard let text else { return }
        let hasNUL = text.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? text.utf8.contains(0)
        if hasNUL {
            throw .database(code: 0, message: "text contains a NUL character, which the store cannot hold", sql: nil)
        }
    }

    /// The prospect in a row selected with `columns(_:)`.
    static func prospect(from row: some DatabaseRow) throws(StoreError) -> StoredProspect {
        let parts = try Column.nameParts.map { column throws(StoreError) in try row.optionalText(column.rawValue) }
        let ratingText = try row.text(Column.rating.rawValue)
        guard let rating = ProspectRating(rawValue: ratingText) else {
            throw .corrupt("unknown rating \"\(ratingText)\"")
        }
        return StoredProspect(
            id: try row.int64(Column.id.rawValue),
            prospect: Prospect(
                name: try row.text(Column.name.rawValue), email: try row.text(Column.email.rawValue),
                phone: try row.optionalText(Column.phone.rawValue),
                organization: try row.optionalText(Column.organization.rawValue),
                title: try row.optionalText(Column.title.rawValue),
                nameParts: parts.allSatisfy { $0 == nil } ? nil : NameParts(components: parts.map { $0 ?? "" }),
                otherEmails: try row.optionalText(Column.otherEmails.rawValue).map {
                    $0.split(separator: "\n").map(String.init)
                } ?? [],
                otherPhones: try row.optionalText(Column.otherPhones.rawValue).map {
                    $0.split(separator: "\n").map(String.init)
                } ?? []),
            key: try row.text(Column.emailKey.rawValue),
            isContacted: try row.bool(Column.contacted.rawValue),
            createdAt: try row.date(Column.createdAt.rawValue),
            lastSeenAt: try row.date(Column.lastSeenAt.rawValue),
            scanCount: try row.int(Column.scanCount.rawValue),
            firstSource: try row.text(Column.firstSource.rawValue),
            remindAt: try row.optionalDate(Column.remindAt.rawValue),
            rating: rating,
            firstEvent: try row.optionalText(Column.firstEvent.rawValue),
            firstCollectedBy: try row.optionalText(Column.firstCollectedBy.rawValue),
            tags: sortedTags(
                try row.optionalText(Column.tags.rawValue).map { $0.split(separator: "\n").map(String.init) } ?? []))
    }

    static func scanRecord(from row: some DatabaseRow) throws(StoreError) -> ScanRecord {
        ScanRecord(
            source: try row.text(0), seenAt: try row.date(1), event: try row.optionalText(3),
            collectedBy: try row.optionalText(4))
    }

    static func ledgerEntry(from row: some DatabaseRow) throws(StoreError) -> LedgerEntry {
        let outcomeText = try row.text(LedgerValue.outcome.rawValue)
        guard let outcome = LedgerEntry.Outcome(rawValue: outcomeText) else {
            throw .corrupt("unknown ledger outcome \"\(outcomeText)\"")
        }
        return LedgerEntry(
            contentHash: try row.text(LedgerValue.contentHash.rawValue),
            fileName: try row.text(LedgerValue.fileName.rawValue), outcome: outcome,
            prospects: try row.int(LedgerValue.prospects.rawValue),
            processedAt: try row.date(LedgerValue.processedAt.rawValue))
    }
}
