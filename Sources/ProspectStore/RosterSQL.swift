import ProspectsCore

/// The SQL of the roster table (schema 8), the same on SQLite and PostgreSQL.
enum RosterSQL {
    private static let columns =
        "event, attendee_id, name, email, organization, title, phone, source, imported_at"

    static let upsert = """
        INSERT INTO roster_entries (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT (event, attendee_id) DO UPDATE SET name = excluded.name, email = excluded.email,
            organization = excluded.organization, title = excluded.title, phone = excluded.phone,
            source = excluded.source, imported_at = excluded.imported_at
        """
    static let count = "SELECT count(*) FROM roster_entries WHERE event = $1"
    static let any = "SELECT 1 FROM roster_entries WHERE event = $1 LIMIT 1"
    /// By ID in byte order: PostgreSQL's column is `COLLATE "C"`.
    static let selectAll = "SELECT \(columns) FROM roster_entries WHERE event = $1 ORDER BY attendee_id"
    static let selectOne = "SELECT \(columns) FROM roster_entries WHERE event = $1 AND attendee_id = $2"

    static func values(of entry: RosterEntry) -> [SQLValue] {
        [
            .text(entry.event), .text(entry.attendeeID), .text(entry.name), .text(entry.email),
            .text(entry.organization), .text(entry.title), .text(entry.phone), .text(entry.source),
            .date(entry.importedAt),
        ]
    }

    static func entry(from row: some DatabaseRow) throws(StoreError) -> RosterEntry {
        RosterEntry(
            event: try row.text(0), attendeeID: try row.text(1), name: try row.text(2), email: try row.optionalText(3),
            organization: try row.optionalText(4), title: try row.optionalText(5), phone: try row.optionalText(6),
            source: try row.text(7), importedAt: try row.date(8))
    }

    /// The distinct events of `entries`, in byte order, each made an event before its attendees are written.
    static func events(of entries: [RosterEntry]) -> [String] {
        var names: [String] = []
        for entry in entries where names.last != entry.event && !names.contains(entry.event) {
            names.append(entry.event)
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
