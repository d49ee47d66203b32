import Foundation
import ProspectsCore

extension PostgresStore: RosterStore {
    public func addEvent(_ event: Event) throws(StoreError) -> Bool {
        try connection.execute(EventSQL.insert, EventSQL.values(of: event)).affectedRows > 0
    }

    public func events() throws(StoreError) -> [Event] {
        try connection.execute(EventSQL.selectAll).rows.map { row throws(StoreError) in try EventSQL.event(from: row) }
    }

    public func event(named name: String) throws(StoreError) -> Event? {
        guard let row = try connection.execute(EventSQL.selectOne, [.text(name)]).rows.first else { return nil }
        return try EventSQL.event(from: row)
    }

    public func updateEvent(_ event: Event) throws(StoreError) -> Bool {
        try connection.execute(EventSQL.update, Array(EventSQL.values(of: event).prefix(5))).affectedRows > 0
    }

    public func eventCounts(named name: String) throws(StoreError) -> (leads: Int, scans: Int) {
        guard let row = try connection.execute(EventSQL.counts, [.text(name)]).rows.first else { return (0, 0) }
        return (try row.int(0), try row.int(1))
    }

    /// Makes an event of every name `names` holds that is none yet, inside the caller's transaction, in byte order
    /// (one lock order for every writer).
    func recordEventNames(_ names: [(name: String, seenAt: Date)]) throws(StoreError) {
        for (name, date) in names { try connection.execute(EventSQL.insertNamed, [.text(name), .date(date)]) }
    }

    public func writeRoster(_ entries: [RosterEntry]) throws(StoreError) -> RosterWrite {
        let events = RosterSQL.events(of: entries)
        // One lock order for every writer: by event, then by attendee ID.
        let sorted = entries.sorted { left, right in
            left.event == right.event
                ? left.attendeeID.utf8.lexicographicallyPrecedes(right.attendeeID.utf8)
                : left.event.utf8.lexicographicallyPrecedes(right.event.utf8)
        }
        return try connection.transaction { () throws(StoreError) in
            try recordEventNames(events.map { ($0, entries.first?.importedAt ?? Date()) })
            var added = 0
            for entry in sorted {
                let result = try connection.execute(
                    RosterSQL.upsert + " RETURNING (xmax = 0)", RosterSQL.values(of: entry))
                if try result.rows.first?.bool(0) == true { added += 1 }
            }
            return RosterWrite(added: added, updated: entries.count - added)
        }
    }

    public func roster(of event: String) throws(StoreError) -> [RosterEntry] {
        try connection.execute(RosterSQL.selectAll, [.text(event)]).rows.map { row throws(StoreError) in
            try RosterSQL.entry(from: row)
        }
    }

    public func rosterEntry(event: String, attendeeID: String) throws(StoreError) -> RosterEntry? {
        guard let row = try connection.execute(RosterSQL.selectOne, [.text(event), .text(attendeeID)]).rows.first
        else { return nil }
        return try RosterSQL.entry(from: row)
    }

    public func rosterCount(of event: String) throws(StoreError) -> Int {
        guard let row = try connection.execute(RosterSQL.count, [.text(event)]).rows.first else { return 0 }
        return try row.int(0)
    }

    public func hasRoster(_ event: String) throws(StoreError) -> Bool {
        try !connection.execute(RosterSQL.any, [.text(event)]).rows.isEmpty
    }
}
