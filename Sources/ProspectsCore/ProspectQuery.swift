/// Which prospects a list shows, in which order, and which page of them.
///
/// Every condition given must hold. `search` finds its words' text, case- and accent-insensitively (`muller`
/// finds Müller), in the name, address, organisation, title, notes or tags.
public struct ProspectQuery: Sendable, Hashable {
    public var filter: ProspectFilter
    public var search: String?
    public var rating: ProspectRating?
    /// A tag the prospect has, compared as `search` compares.
    public var tag: String?
    /// The event of any sighting (the first, or a later scan).
    public var event: String?
    /// Who collected any sighting.
    public var collectedBy: String?
    public var sort: ProspectSort
    public var reverse: Bool
    public var limit: Int?
    public var offset: Int

    public init(
        filter: ProspectFilter = .everyone, search: String? = nil, rating: ProspectRating? = nil, tag: String? = nil,
        event: String? = nil, collectedBy: String? = nil, sort: ProspectSort = .name, reverse: Bool = false,
        limit: Int? = nil, offset: Int = 0
    ) {
        self.filter = filter
        self.search = search
        self.rating = rating
        self.tag = tag
        self.event = event
        self.collectedBy = collectedBy
        self.sort = sort
        self.reverse = reverse
        self.limit = limit
        self.offset = offset
    }
}
