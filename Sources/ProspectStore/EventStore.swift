import Foundation
import ProspectsCore

/// The events kept in a store (schema 8), beside the prospects whose scans name them.
public protocol EventStore: ProspectStore {
    /// Adds the event; false when one of that name exists (it is left as it was).
    func addEvent(_ event: Event) throws(StoreError) -> Bool
    /// Every event, by name in byte order.
    func events() throws(StoreError) -> [Event]
    func event(named name: String) throws(StoreError) -> Event?
    /// Writes the event's dates, location and badge pattern; false when there is no event of its name.
    func updateEvent(_ event: Event) throws(StoreError) -> Bool
    /// How many leads have a scan at the event, and how many scans there were.
    func eventCounts(named name: String) throws(StoreError) -> (leads: Int, scans: Int)
}
