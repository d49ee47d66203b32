import Foundation
import ProspectsCore

/// The SQL of the events table (schema 8), the same on SQLite and PostgreSQL.
enum EventSQL {
    /// Version 8's events: one per distinct event name the scans held, dated by its first scan.
    static let fillFromScans = """
        INSERT INTO events (name, created_at)
        SELECT event, min(seen_at) FROM (
            SELECT first_event AS event, created_at AS seen_at FROM prospects WHERE first_event IS NOT NULL
            UNION ALL SELECT event, seen_at FROM scans WHERE event IS NOT NULL
        ) AS named GROUP BY event
        """

    /// An event a scan names for the first time.
    static let insertNamed = "INSERT INTO events (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING"

    static let insert = """
        INSERT INTO events (name, starts_on, ends_on, location, badge_pattern, created_at)
        VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING
        """
    static let update =
        "UPDATE events SET starts_on = $2, ends_on = $3, location = $4, badge_pattern = $5 WHERE name = $1"

    private static let columns = "name, starts_on, ends_on, location, badge_pattern, created_at"
    /// By name in byte order: PostgreSQL's column is `COLLATE "C"`.
    static let selectAll = "SELECT \(columns) FROM events ORDER BY name"
    static let selectOne = "SELECT \(columns) FROM events WHERE name = $1"

    static let counts = """
        SELECT
            (SELECT count(*) FROM prospects WHERE first_event = $1
                OR id IN (SELECT prospect_id FROM scans WHERE event = $1)),
            (SELECT count(*) FROM prospects WHERE first_event = $1)
                + (SELECT count(*) FROM scans WHERE event = $1)
        """

    static func values(of event: Event) -> [SQLValue] {
        [
            .text(event.name), .text(event.starts?.description), .text(event.ends?.description),
            .text(event.location), .text(event.badgePattern), .date(event.createdAt),
        ]
    }

    static func event(from row: some DatabaseRow) throws(StoreError) -> Event {
        func day(_ column: Int) throws(StoreError) -> EventDay? {
            guard let text = try row.optionalText(column) else { return nil }
            guard let day = EventDay(text) else { throw .corrupt("an event has the date \(text)") }
            return day
        }
        return Event(
            name: try row.text(0), starts: try day(1), ends: try day(2), location: try row.optionalText(3),
            badgePattern: try row.optionalText(4), createdAt: try row.date(5))
    }

    /// The distinct event names `groups` record, each with its earliest scan, in byte order (PostgreSQL's lock
    /// order), so that each is an event before its scans are written.
    static func names(in groups: [LedgeredSightings]) -> [(name: String, seenAt: Date)] {
        var names: [(name: String, seenAt: Date)] = []
        func add(_ name: String?, _ date: Date) {
            guard let name else { return }
            guard let index = names.lastIndex(where: { $0.name == name }) else {
                names.append((name, date))
                return
            }
            names[index].seenAt = min(names[index].seenAt, date)
        }
        // Each sighting's fields read in place: `for sighting in group.sightings` copied every sighting, a retain and
        // release for each of its texts, on the thread that holds the write lock.
        for group in groups {
            for index in group.sightings.indices {
                add(group.sightings[index].event, group.sightings[index].seenAt)
                guard let history = group.sightings[index].carried?.history else { continue }
                for scan in history { add(scan.event, scan.seenAt) }
            }
        }
        return names.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
}
