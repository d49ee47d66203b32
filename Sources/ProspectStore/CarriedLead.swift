import Foundation
import ProspectsCore

/// What a lead exported from a store carries beyond its card: the team's work on it (notes, rating, tags) and its
/// history. An import of our own export hands it to the store with the lead's sighting, so that a list moved from
/// one store to another keeps it (`ProspectSQL.carriedStatements`).
public struct CarriedLead: Sendable, Hashable {
    /// The notes, oldest first, each with its author and time.
    public var notes: [ProspectNote]
    /// The rating; nil when the list does not say.
    public var rating: ProspectRating?
    public var tags: [String]
    /// Every sighting, oldest first: the first is where the lead was first seen. Empty when the list does not say.
    public var history: [ScanRecord]
    /// When the lead was last seen, and how often; nil when the list does not say.
    public var lastSeenAt: Date?
    public var scanCount: Int?

    public init(
        notes: [ProspectNote] = [], rating: ProspectRating? = nil, tags: [String] = [], history: [ScanRecord] = [],
        lastSeenAt: Date? = nil, scanCount: Int? = nil
    ) {
        self.notes = notes
        self.rating = rating
        self.tags = tags
        self.history = history
        self.lastSeenAt = lastSeenAt
        self.scanCount = scanCount
    }
}
