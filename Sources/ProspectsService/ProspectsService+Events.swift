import Foundation
import ProspectStore
import ProspectsCore

/// What `event add` or `event edit` gives, as typed: nil leaves a value as it is, an empty text clears it.
public struct EventChanges: Sendable, Hashable {
    public var starts: String?
    public var ends: String?
    public var location: String?
    public var badgePattern: String?

    public init(starts: String? = nil, ends: String? = nil, location: String? = nil, badgePattern: String? = nil) {
        self.starts = starts
        self.ends = ends
        self.location = location
        self.badgePattern = badgePattern
    }
}

/// An event with what the store holds for it: its leads, their scans, its roster's attendees.
public struct EventSummary: Sendable, Hashable {
    public var event: Event
    public var leads: Int
    public var scans: Int
    public var attendees: Int
}

/// Events as records (schema 8): the names `--event` gives, with their days, place and badge pattern.
extension ProspectsService {
    /// Adds an event; a name `--event` already gave is one already (made by its first scan): `edit` changes it.
    public func addEvent(name: String, _ changes: EventChanges, now: Date = Date()) throws(EventError) -> Event {
        let name = try Self.eventName(name)
        var event = Event(name: name, createdAt: now)
        try Self.apply(changes, to: &event)
        let added: Bool
        do { added = try eventStore(create: true).addEvent(event) } catch { throw .store(error) }
        guard added else { throw .nameTaken(name) }
        return event
    }

    /// Changes an event's days, location or badge pattern.
    public func editEvent(name: String, _ changes: EventChanges) throws(EventError) -> Event {
        let store: any EventStore
        do { store = try eventStore() } catch { throw .store(error) }
        let found: Event?
        do { found = try store.event(named: name) } catch { throw .store(error) }
        guard var event = found else { throw .noSuchEvent(name) }
        try Self.apply(changes, to: &event)
        let updated: Bool
        do { updated = try store.updateEvent(event) } catch { throw .store(error) }
        guard updated else { throw .noSuchEvent(name) }
        return event
    }

    /// Every event, by name, with its counts.
    public func eventSummaries() throws(StoreError) -> [EventSummary] {
        let store = try eventStore()
        return try store.events().map { event throws(StoreError) in try summary(of: event, in: store) }
    }

    /// The event of that name, with its counts.
    public func eventSummary(named name: String) throws(EventError) -> EventSummary {
        let found: (Event, any RosterStore)?
        do {
            let store = try eventStore()
            found = try store.event(named: name).map { ($0, store) }
        } catch { throw .store(error) }
        guard let (event, store) = found else { throw .noSuchEvent(name) }
        do { return try summary(of: event, in: store) } catch { throw .store(error) }
    }

    /// The event of that name, if there is one.
    public func event(named name: String) throws(StoreError) -> Event? {
        try eventStore().event(named: name)
    }

    private func summary(of event: Event, in store: any RosterStore) throws(StoreError) -> EventSummary {
        let counts = try store.eventCounts(named: event.name)
        return EventSummary(
            event: event, leads: counts.leads, scans: counts.scans, attendees: try store.rosterCount(of: event.name))
    }

    /// An event's name, checked as `--event` is (one line, no control characters).
    static func eventName(_ raw: String) throws(EventError) -> String {
        switch FreeText.line(raw, field: "event") {
        case .success(let name?): return name
        case .success(nil): throw .blankName
        case .failure(let error): throw .invalidText(error)
        }
    }

    private static func apply(_ changes: EventChanges, to event: inout Event) throws(EventError) {
        func day(_ text: String, _ option: String) throws(EventError) -> EventDay? {
            guard !text.isEmpty else { return nil }
            guard let day = EventDay(text) else { throw .invalidDay(option: option, text: text) }
            return day
        }
        if let starts = changes.starts { event.starts = try day(starts, "--starts") }
        if let ends = changes.ends { event.ends = try day(ends, "--ends") }
        if let starts = event.starts, let ends = event.ends, ends < starts {
            throw .endsBeforeItStarts(starts: starts, ends: ends)
        }
        if let location = changes.location {
            switch FreeText.line(location, field: "location") {
            case .success(let text): event.location = text
            case .failure(let error): throw .invalidText(error)
            }
        }
        if let pattern = changes.badgePattern {
            if pattern.isEmpty {
                event.badgePattern = nil
            } else {
                do { _ = try BadgePattern(pattern) } catch { throw .invalidBadgePattern(error) }
                event.badgePattern = pattern
            }
        }
    }

    func eventStore(create: Bool = false) throws(StoreError) -> any RosterStore {
        guard let events = try store(create: create) as? any RosterStore else {
            throw .unavailable("this store cannot keep events")
        }
        return events
    }
}
