import Foundation
import ProspectsCore

extension SQLiteStore: RosterStore {
    public func addEvent(_ event: Event) throws(StoreError) -> Bool {
        let statement = try database.statement(EventSQL.insert)
        return try database.writeTransaction { () throws(StoreError) in
            try statement.execute(EventSQL.values(of: event))
            return statement.changes > 0
        }
    }

    public func events() throws(StoreError) -> [Event] {
        try database.query(EventSQL.selectAll) { row throws(StoreError) in try EventSQL.event(from: row) }
    }

    public func event(named name: String) throws(StoreError) -> Event? {
        try database.query(EventSQL.selectOne, [.text(name)]) { row throws(StoreError) in
            try EventSQL.event(from: row)
        }.first
    }

    public func updateEvent(_ event: Event) throws(StoreError) -> Bool {
        let statement = try database.statement(EventSQL.update)
        return try database.writeTransaction { () throws(StoreError) in
            try statement.execute(Array(EventSQL.values(of: event).prefix(5)))
            return statement.changes > 0
        }
    }

    public func eventCounts(named name: String) throws(StoreError) -> (leads: Int, scans: Int) {
        try database.query(EventSQL.counts, [.text(name)]) { row throws(StoreError) in
            (try row.int(0), try row.int(1))
        }.first ?? (0, 0)
    }

    /// Makes an event of every name `names` holds that is none yet, inside the caller's write transaction.
    func recordEventNames(_ names: [(name: String, seenAt: Date)]) throws(StoreError) {
        guard !names.isEmpty else { return }
        let statement = try database.statement(EventSQL.insertNamed)
        for (name, date) in names { try statement.execute([.text(name), .date(date)]) }
    }

    public func writeRoster(_ entries: [RosterEntry]) throws(StoreError) -> RosterWrite {
        let events = RosterSQL.events(of: entries)
        let upsert = try database.statement(RosterSQL.upsert)
        return try database.writeTransaction { () throws(StoreError) in
            try recordEventNames(events.map { ($0, entries.first?.importedAt ?? Date()) })
            var before = 0
            for event in events { before += try rosterCount(of: event) }
            for entry in entries { try upsert.execute(RosterSQL.values(of: entry)) }
            var after = 0
            for event in events { after += try rosterCount(of: event) }
            return RosterWrite(added: after - before, updated: entries.count - (after - before))
        }
    }

    public func roster(of event: String) throws(StoreError) -> [RosterEntry] {
        try database.query(RosterSQL.selectAll, [.text(event)]) { row throws(StoreError) in
            try RosterSQL.entry(from: row)
        }
    }

    public func rosterEntry(event: String, attendeeID: String) throws(StoreError) -> RosterEntry? {
        try database.query(RosterSQL.selectOne, [.text(event), .text(attendeeID)]) { row throws(StoreError) in
            try RosterSQL.entry(from: row)
        }.first
    }

    public func rosterCount(of event: String) throws(StoreError) -> Int {
        try database.query(RosterSQL.count, [.text(event)]) { row throws(StoreError) in try row.int(0) }.first ?? 0
    }

    public func hasRoster(_ event: String) throws(StoreError) -> Bool {
        try !database.query(RosterSQL.any, [.text(event)]) { row throws(StoreError) in try row.int(0) }.isEmpty
    }
}
