import Foundation

/// One attendee of an event's roster (the organiser's attendee list): what a badge holding only the attendee's
/// ID stands for.
public struct RosterEntry: Sendable, Hashable {
    public var event: String
    /// The registration, ticket or barcode number a badge's code holds; the key within the event.
    public var attendeeID: String
    public var name: String
    public var email: String?
    public var organization: String?
    public var title: String?
    public var phone: String?
    /// Where the row came from (`FILE:LINE`).
    public var source: String
    public var importedAt: Date

    public init(
        event: String, attendeeID: String, name: String, email: String? = nil, organization: String? = nil,
        title: String? = nil, phone: String? = nil, source: String, importedAt: Date
    ) {
        self.event = event
        self.attendeeID = attendeeID
        self.name = name
        self.email = email
        self.organization = organization
        self.title = title
        self.phone = phone
        self.source = source
        self.importedAt = importedAt
    }
}

/// What writing a roster did.
public struct RosterWrite: Sendable, Hashable {
    /// Attendees the roster did not hold.
    public var added: Int
    /// Attendees it held, written again with the list's values.
    public var updated: Int

    public init(added: Int, updated: Int) {
        self.added = added
        self.updated = updated
    }
}
