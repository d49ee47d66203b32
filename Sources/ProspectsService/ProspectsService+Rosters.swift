import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange

/// What importing an attendee list did.
public struct RosterImportReport: Sendable, Hashable {
    public var event: String
    public var added: Int
    public var updated: Int
    /// The rows refused, each with its line and reason, in file order.
    public var refused: [RosterError]
}

/// The events' rosters: the organiser's attendee lists, which badges holding only an ID are looked up in.
extension ProspectsService {
    /// Reads the list at `path` and writes its attendees into `event`'s roster in one transaction: a row of an ID
    /// the roster holds replaces it, so importing an updated list again updates, never duplicates. Rows without an
    /// ID or a name are refused one by one (`RosterImportReport.refused`); the rest are imported. An event not
    /// known yet is made, as `--event` makes one.
    public func importRoster(
        event: String, path: String, profile: RosterColumns.Profile? = nil,
        columns: [RosterColumns.Field: String] = [:], now: Date = Date()
    ) throws(RosterImportError) -> RosterImportReport {
        let name: String
        do { name = try Self.eventName(event) } catch { throw .event(error) }
        let reader: RosterReader
        do { reader = try RosterReader(path: path, profile: profile, columns: columns) } catch {
            throw .list(path: path, error)
        }
        var entries: [RosterEntry] = []
        var refused: [RosterError] = []
        let file = URL(fileURLWithPath: path).lastPathComponent
        while true {
            let row: RosterRow?
            do { row = try reader.next() } catch {
                guard case .refused = error else { throw .list(path: path, error) }
                refused.append(error)
                continue
            }
            guard let row else { break }
            entries.append(
                RosterEntry(
                    event: name, attendeeID: row.attendeeID, name: row.name, email: row.email,
                    organization: row.organization, title: row.title, phone: row.phone,
                    source: "\(file):\(row.line)", importedAt: now))
        }
        var report = RosterImportReport(event: name, added: 0, updated: 0, refused: refused)
        guard !entries.isEmpty else { return report }
        do {
            let written = try eventStore(create: true).writeRoster(entries)
            report.added = written.added
            report.updated = written.updated
        } catch { throw .store(error) }
        return report
    }

    /// The event's attendees, by ID.
    public func roster(of event: String) throws(EventError) -> [RosterEntry] {
        let store = try rosterStore(of: event)
        do { return try store.roster(of: event) } catch { throw .store(error) }
    }

    /// One attendee of the event's roster, if it holds that ID.
    public func attendee(_ attendeeID: String, of event: String) throws(EventError) -> RosterEntry? {
        let store = try rosterStore(of: event)
        do { return try store.rosterEntry(event: event, attendeeID: attendeeID) } catch { throw .store(error) }
    }

    /// The store, once it is known to hold `event`.
    private func rosterStore(of event: String) throws(EventError) -> any RosterStore {
        let found: Event?
        let store: any RosterStore
        do {
            store = try eventStore()
            found = try store.event(named: event)
        } catch { throw .store(error) }
        guard found != nil else { throw .noSuchEvent(event) }
        return store
    }
}
