import Foundation
import ProspectsCore

/// The events' rosters (schema 8), keyed by (event, attendee ID): importing a list again updates its attendees.
public protocol RosterStore: EventStore {
    /// Writes every entry in one transaction, each replacing the one of its event and ID; an event an entry names
    /// for the first time becomes an event.
    func writeRoster(_ entries: [RosterEntry]) throws(StoreError) -> RosterWrite
    /// The event's attendees, by ID in byte order.
    func roster(of event: String) throws(StoreError) -> [RosterEntry]
    func rosterEntry(event: String, attendeeID: String) throws(StoreError) -> RosterEntry?
    func rosterCount(of event: String) throws(StoreError) -> Int
    /// Whether the event's roster holds anyone: one index probe, however long the roster.
    func hasRoster(_ event: String) throws(StoreError) -> Bool
}
