import Foundation

/// The store for teams whose scanners run on several machines: one PostgreSQL database.
///
/// Open one per thread: the connection belongs to one thread at a time. Concurrent writers on other connections
/// and machines are safe: the unique index and `ON CONFLICT` decide which sighting creates a prospect.
public final class PostgresStore: ProspectStore {
    private let connection: PostgresConnection

    /// Connects to `url` (`postgres://user:password@host:port/database`) and migrates the schema as needed.
    /// Fails within the connect timeout (5 s unless the URL sets `connect_timeout`) with `.unavailable`.
    public init(url: String) throws(StoreError) {
        connection = try PostgresConnection(url: url)
        try PostgresSchema.migrate(connection)
    }

    /// One round trip per sighting: the upsert, and for a known prospect its history row (a new prospect's first
    /// sighting lives in the prospect row itself, as in SQLite). `xmax = 0` holds only for a row version this
    /// statement inserted; an updated row carries our transaction id.
    private static let upsert = """
        WITH upserted AS (
            INSERT INTO prospects (name, name_key, email, email_key, phone, organization, contacted, created_at,
                last_seen_at, scan_count, first_source, remind_at)
            VALUES ($1, $2, $3, $4, $5, $6, $9, $10, $7, 1, $8, $11)
            ON CONFLICT (email_key) DO UPDATE SET scan_count = prospects.scan_count + 1,
                last_seen_at = GREATEST(prospects.last_seen_at, EXCLUDED.last_seen_at),
                phone = COALESCE(prospects.phone, EXCLUDED.phone),
                organization = COALESCE(prospects.organization, EXCLUDED.organization)
            RETURNING id, (xmax = 0) AS inserted
        ), scanned AS (
            INSERT INTO scans (prospect_id, source, seen_at) SELECT id, $8, $7 FROM upserted WHERE NOT inserted
        )
        SELECT id, inserted FROM upserted
        """

    /// Content already in the ledger creates a prospect again only if it was deleted: no row when it is there.
    private static let insertIfDeleted = """
        INSERT INTO prospects (name, name_key, email, email_key, phone, organization, contacted, created_at,
            last_seen_at, scan_count, first_source, remind_at)
        VALUES ($1, $2, $3, $4, $5, $6, $9, $10, $7, 1, $8, $11)
        ON CONFLICT (email_key) DO NOTHING
        RETURNING id
        """

    public func record(_ groups: [LedgeredSightings]) throws(StoreError) -> [LedgeredResult] {
        // Validate before BEGIN so that bad input is never mistaken for a retryable race.
        let prepared = try groups.map { group throws(StoreError) in
            (
                entry: try group.entry.map(ProspectSQL.ledgerValues),
                sightings: try group.sightings.map(ProspectSQL.upsertValues)
            )
        }
        return try connection.transaction { () throws(StoreError) in
            var groupResults: [LedgeredResult] = []
            groupResults.reserveCapacity(prepared.count)
            for group in prepared {
                // The entry goes first: a concurrent transaction inserting the same hash makes this one wait on
                // the unique index, and once it commits, ON CONFLICT DO NOTHING affects no row.
                if let entry = group.entry,
                    try connection.execute(ProspectSQL.insertLedgerEntry, entry).affectedRows == 0
                {
                    var restored: [Int64?] = []
                    for values in group.sightings {
                        let rows = try connection.execute(Self.insertIfDeleted, values).rows
                        restored.append(try rows.first?.int64(0))
                    }
                    groupResults.append(.alreadyInLedger(restored: restored))
                    continue
                }
                var results: [SightingResult] = []
                results.reserveCapacity(group.sightings.count)
                for values in group.sightings {
                    guard let row = try connection.execute(Self.upsert, values).rows.first else {
                        throw .corrupt("the upsert returned no row")
                    }
                    let id = try row.int64(0)
                    results.append(try row.bool(1) ? .inserted(id: id) : .duplicate(id: id))
                }
                groupResults.append(.recorded(results))
            }
            return groupResults
        }
    }

    public func ledgerEntry(contentHash: String) throws(StoreError) -> LedgerEntry? {
        try connection.execute(ProspectSQL.ledgerEntry, [.text(contentHash)]).rows.first
            .map(ProspectSQL.ledgerEntry(from:))
    }

    public func list(filter: ProspectFilter, sort: ProspectSort, reverse: Bool) throws(StoreError)
        -> [StoredProspect]
    {
        try prospects(ProspectSQL.list(filter: filter, sort: sort, reverse: reverse), [])
    }

    public func prospect(_ reference: ProspectReference) throws(StoreError) -> StoredProspect? {
        let (sql, value) = ProspectSQL.select(reference)
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
        return try connection.execute(sql, [value, .bool(contacted)]).affectedRows > 0
    }

    public func delete(_ reference: ProspectReference) throws(StoreError) -> Bool {
        let (sql, value) = ProspectSQL.delete(reference)
        return try connection.execute(sql, [value]).affectedRows > 0
    }

    public func setReminder(_ reference: ProspectReference, at date: Date?) throws(StoreError) -> Bool {
        let (sql, value) = ProspectSQL.update(reference, set: "remind_at = $2")
        return try connection.execute(sql, [value, .date(date)]).affectedRows > 0
    }

    public func due(at date: Date) throws(StoreError) -> [StoredProspect] {
        try prospects(ProspectSQL.due, [.date(date)])
    }

    public func count() throws(StoreError) -> Int {
        guard let row = try connection.execute(ProspectSQL.count).rows.first else { return 0 }
        return try row.int(0)
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
