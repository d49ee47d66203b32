import Foundation
import ProspectsCore

/// SQL text and rules shared by both stores, so that they filter, sort and update identically. Parameters are
/// written `$1`, `$2`…, which both SQLite and PostgreSQL understand.
enum ProspectSQL {
    /// The schema version this program writes; stores refuse newer ones with `.schemaTooNew`.
    static let schemaVersion = 2

    /// Reads no row, and fails unless `prospects` has version 1's columns: a table of that name found with no
    /// schema version may be another program's, which the version 2 migration would fail on halfway.
    static let version1Shape = "SELECT id, name, email, email_key, contacted, created_at FROM prospects LIMIT 0"

    /// The error for a `prospects` table that `version1Shape` failed on; `place` names the database.
    static func foreignProspectsTable(in place: String, _ failure: StoreError, otherwise: String) -> StoreError {
        guard case .database(_, let message, _) = failure else { return failure }
        return .unsupportedDatabase(
            "\(place) has a table named prospects that is not a prospect store's (\(message)): \(otherwise)")
    }

    /// The columns `prospect(from:)` reads, in its order.
    static let columns = """
        id, name, email, email_key, phone, organization, contacted, created_at, last_seen_at, scan_count, \
        first_source, remind_at
        """

    /// `foldedNameKey` is the store's SQL for `NameKey.fold(name_key)`.
    static func list(filter: ProspectFilter, sort: ProspectSort, reverse: Bool, foldedNameKey: String) -> String {
        // TRUE and FALSE are keywords in SQLite (as 1 and 0) and in PostgreSQL.
        let condition =
            switch filter {
            case .everyone: ""
            case .contacted: " WHERE contacted = TRUE"
            case .uncontacted: " WHERE contacted = FALSE"
            }
        // The id breaks ties so that the order is total and identical in both stores.
        let order =
            switch (sort, reverse) {
            case (.name, false): "\(foldedNameKey) ASC, name_key ASC, id ASC"
            case (.name, true): "\(foldedNameKey) DESC, name_key DESC, id DESC"
            case (.recent, false): "created_at DESC, id DESC"
            case (.recent, true): "created_at ASC, id ASC"
            }
        return "SELECT \(columns) FROM prospects\(condition) ORDER BY \(order)"
    }

    /// The condition that picks the prospect `reference` names (always parameter `$1`) and the value to bind.
    static func matching(_ reference: ProspectReference) -> (condition: String, value: SQLValue) {
        switch reference {
        case .email(let email): ("email_key = $1", .text(DedupKey.make(email)))
        case .id(let id): ("id = $1", .integer(id))
        }
    }

    static func select(_ reference: ProspectReference) -> (sql: String, value: SQLValue) {
        let (condition, value) = matching(reference)
        return ("SELECT \(columns) FROM prospects WHERE \(condition)", value)
    }

    static func update(_ reference: ProspectReference, set assignment: String) -> (sql: String, value: SQLValue) {
        let (condition, value) = matching(reference)
        return ("UPDATE prospects SET \(assignment) WHERE \(condition)", value)
    }

    static func delete(_ reference: ProspectReference) -> (sql: String, value: SQLValue) {
        let (condition, value) = matching(reference)
        return ("DELETE FROM prospects WHERE \(condition)", value)
    }

    static let due = "SELECT \(columns) FROM prospects WHERE remind_at <= $1 ORDER BY remind_at ASC, id ASC"
    static let count = "SELECT count(*) FROM prospects"
    /// Every sighting of a prospect, oldest first: the first one is kept in the prospect row (`first_source`,
    /// `created_at`), later ones in `scans`, which saves a bulk import one insert per new prospect.
    static let history = """
        SELECT first_source, created_at, 0 AS seq FROM prospects WHERE id = $1 \
        UNION ALL SELECT source, seen_at, id FROM scans WHERE prospect_id = $1 \
        ORDER BY 2 ASC, 3 ASC
        """
    static let insertScan = "INSERT INTO scans (prospect_id, source, seen_at) VALUES ($1, $2, $3)"
    static let ledgerEntry =
        "SELECT content_hash, file_name, outcome, prospects, processed_at FROM files WHERE content_hash = $1"
    static let insertLedgerEntry = """
        INSERT INTO files (content_hash, file_name, outcome, prospects, processed_at) VALUES ($1, $2, $3, $4, $5) \
        ON CONFLICT (content_hash) DO NOTHING
        """

    /// Parameters `$1`…`$11` of both stores' upsert: name, name key, email, email key, phone, organization,
    /// seen at, source; then, for a new prospect only: contacted, created at, reminder.
    static func upsertValues(_ sighting: Sighting) throws(StoreError) -> [SQLValue] {
        let prospect = sighting.prospect
        // Field by field, not through array literals: this runs for every row an import writes, on its writing
        // thread.
        try rejectNUL(prospect.name)
        try rejectNUL(prospect.email)
        try rejectNUL(prospect.phone)
        try rejectNUL(prospect.organization)
        try rejectNUL(sighting.source)
        var values: [SQLValue] = []
        values.reserveCapacity(12)  // a store may append the new prospect's id as $12
        values.append(.text(prospect.name))
        values.append(.text(sighting.nameKey))
        values.append(.text(prospect.email))
        values.append(.text(sighting.emailKey))
        values.append(.text(prospect.phone))
        values.append(.text(prospect.organization))
        values.append(.date(sighting.seenAt))
        values.append(.text(sighting.source))
        values.append(.bool(sighting.contactedIfNew))
        values.append(.date(sighting.createdAtIfNew ?? sighting.seenAt))
        values.append(.date(sighting.remindAtIfNew))
        return values
    }

    static func ledgerValues(_ entry: LedgerEntry) throws(StoreError) -> [SQLValue] {
        try rejectNUL(entry.contentHash)
        try rejectNUL(entry.fileName)
        return [
            .text(entry.contentHash), .text(entry.fileName), .text(entry.outcome.rawValue),
            .integer(Int64(entry.prospects)), .date(entry.processedAt),
        ]
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

    static func prospect(from row: some DatabaseRow) throws(StoreError) -> StoredProspect {
        StoredProspect(
            id: try row.int64(0),
            prospect: Prospect(
                name: try row.text(1), email: try row.text(2), phone: try row.optionalText(4),
                organization: try row.optionalText(5)),
            key: try row.text(3),
            isContacted: try row.bool(6),
            createdAt: try row.date(7),
            lastSeenAt: try row.date(8),
            scanCount: try row.int(9),
            firstSource: try row.text(10),
            remindAt: try row.optionalDate(11))
    }

    static func scanRecord(from row: some DatabaseRow) throws(StoreError) -> ScanRecord {
        ScanRecord(source: try row.text(0), seenAt: try row.date(1))
    }

    static func ledgerEntry(from row: some DatabaseRow) throws(StoreError) -> LedgerEntry {
        let outcomeText = try row.text(2)
        guard let outcome = LedgerEntry.Outcome(rawValue: outcomeText) else {
            throw .corrupt("unknown ledger outcome \"\(outcomeText)\"")
        }
        return LedgerEntry(
            contentHash: try row.text(0), fileName: try row.text(1), outcome: outcome, prospects: try row.int(3),
            processedAt: try row.date(4))
    }
}
