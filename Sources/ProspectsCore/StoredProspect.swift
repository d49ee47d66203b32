import Foundation

/// A prospect as the store holds it, with its bookkeeping.
public struct StoredProspect: Sendable, Hashable {
    public var id: Int64
    public var prospect: Prospect
    public var key: String
    public var isContacted: Bool
    public var createdAt: Date
    public var lastSeenAt: Date
    public var scanCount: Int
    public var firstSource: String
    public var remindAt: Date?
    public var rating: ProspectRating
    /// The event and collector of the first sighting.
    public var firstEvent: String?
    public var firstCollectedBy: String?
    /// The team's tags, in byte order.
    public var tags: [String]

    /// `prospect` holds what the row holds (name, addresses, phone, organisation, title, name parts); its note is
    /// nil, the notes being read with `notes(of:)`.
    public init(
        id: Int64, prospect: Prospect, key: String, isContacted: Bool, createdAt: Date, lastSeenAt: Date,
        scanCount: Int, firstSource: String, remindAt: Date?, rating: ProspectRating = .none,
        firstEvent: String? = nil, firstCollectedBy: String? = nil, tags: [String] = []
    ) {
        self.tags = tags
        self.rating = rating
        self.firstEvent = firstEvent
        self.firstCollectedBy = firstCollectedBy
        self.id = id
        self.prospect = prospect
        self.key = key
        self.isContacted = isContacted
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.scanCount = scanCount
        self.firstSource = firstSource
        self.remindAt = remindAt
    }
}
