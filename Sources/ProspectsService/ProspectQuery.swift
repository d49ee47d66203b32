import ProspectStore

/// Which prospects a list shows and in what order: the app's tabs and sort menu, and a page of the result.
public struct ProspectQuery: Sendable, Hashable {
    public var filter: ProspectFilter
    public var sort: ProspectSort
    /// Flips the sort order.
    public var reverse: Bool
    /// At most this many prospects; nil: all of them.
    public var limit: Int?
    /// How many prospects of the ordered list to skip before the first one returned.
    public var offset: Int

    public init(
        filter: ProspectFilter = .everyone, sort: ProspectSort = .name, reverse: Bool = false, limit: Int? = nil,
        offset: Int = 0
    ) {
        self.filter = filter
        self.sort = sort
        self.reverse = reverse
        self.limit = limit
        self.offset = offset
    }
}
