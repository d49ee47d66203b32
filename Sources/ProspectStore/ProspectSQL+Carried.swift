import Foundation
import ProspectsCore

/// The statements that record what a sighting carries (`CarriedLead`), the same in both stores: `$n` values, and
/// `CAST` where PostgreSQL could not tell a value's type.
extension ProspectSQL {
    /// One statement and its values.
    typealias Statement = (sql: String, values: [SQLValue])

    static let setFirstSighting =
        "UPDATE prospects SET first_source = $2, first_event = $3, first_collected_by = $4 WHERE id = $1"
    static let setSeenAndRating = "UPDATE prospects SET last_seen_at = $2, scan_count = $3, rating = $4 WHERE id = $1"
    static let insertHistoryScan =
        "INSERT INTO scans (prospect_id, source, seen_at, event, collected_by) VALUES ($1, $2, $3, $4, $5)"
    static let insertCarriedNote = "INSERT INTO notes (prospect_id, written_at, author, text) VALUES ($1, $2, $3, $4)"
    /// A note the prospect does not have yet, with the same time, author and text.
    static let mergeCarriedNote = """
        INSERT INTO notes (prospect_id, written_at, author, text) \
        SELECT CAST($1 AS bigint), CAST($2 AS bigint), CAST($3 AS text), CAST($4 AS text) \
        WHERE NOT EXISTS (SELECT 1 FROM notes WHERE prospect_id = $1 AND written_at = $2 AND author = $3 AND text = $4)
        """
    static let insertCarriedTag =
        "INSERT INTO tags (prospect_id, tag) VALUES ($1, $2) ON CONFLICT (prospect_id, tag) DO NOTHING"
    static let rateIfUnrated = "UPDATE prospects SET rating = $2 WHERE id = $1 AND rating = 'none'"
    static let remindIfNone = "UPDATE prospects SET remind_at = $2 WHERE id = $1 AND remind_at IS NULL"
    static let setContactedByID = "UPDATE prospects SET contacted = $2 WHERE id = $1"

    /// What `sighting`'s carried lead adds to the prospect `id`. A prospect it `created` takes it whole: its first
    /// sighting, later ones, last seen time, scan count, rating, notes and tags. A known one gains the notes it
    /// lacks and the tags, and the rating, reminder and contacted state where it has none: nothing it has is lost.
    /// Empty for a sighting that carries nothing.
    static func carriedStatements(_ sighting: Sighting, id: Int64, created: Bool) throws(StoreError) -> [Statement] {
        guard let carried = sighting.carried else { return [] }
        let prospect = SQLValue.integer(id)
        var statements: [Statement] = []
        for note in carried.notes {
            try rejectNUL(note.text)
            try rejectNUL(note.author)
            statements.append(
                (
                    created ? insertCarriedNote : mergeCarriedNote,
                    [prospect, .date(note.writtenAt), .text(note.author), .text(note.text)]
                ))
        }
        for tag in carried.tags {
            try checkTag(tag)
            statements.append((insertCarriedTag, [prospect, .text(tag)]))
        }
        guard created else {
            if let rating = carried.rating, rating != .none {
                statements.append((rateIfUnrated, [prospect, .text(rating.rawValue)]))
            }
            if let remindAt = sighting.remindAtIfNew { statements.append((remindIfNone, [prospect, .date(remindAt)])) }
            if sighting.contactedIfNew { statements.append((setContactedByID, [prospect, .bool(true)])) }
            return statements
        }
        if let first = carried.history.first {
            for text in [first.source, first.event, first.collectedBy] { try rejectNUL(text) }
            statements.append(
                (setFirstSighting, [prospect, .text(first.source), .text(first.event), .text(first.collectedBy)]))
        }
        for scan in carried.history.dropFirst() {
            for text in [scan.source, scan.event, scan.collectedBy] { try rejectNUL(text) }
            statements.append(
                (
                    insertHistoryScan,
                    [prospect, .text(scan.source), .date(scan.seenAt), .text(scan.event), .text(scan.collectedBy)]
                ))
        }
        let scanCount = carried.scanCount ?? max(1, carried.history.count)
        statements.append(
            (
                setSeenAndRating,
                [
                    prospect, .date(carried.lastSeenAt ?? sighting.seenAt), .integer(Int64(max(1, scanCount))),
                    .text((carried.rating ?? .none).rawValue),
                ]
            ))
        return statements
    }
}
