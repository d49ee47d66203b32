import Foundation
import ProspectStore
import ProspectsCore

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
    /// Only the prospects whose name, email or organisation contains this text, without regard to case; nil or
    /// blank: all of them.
    public var search: String?

    public init(
        filter: ProspectFilter = .everyone, sort: ProspectSort = .name, reverse: Bool = false, limit: Int? = nil,
        offset: Int = 0, search: String? = nil
    ) {
        self.filter = filter
        self.sort = sort
        self.reverse = reverse
        self.limit = limit
        self.offset = offset
        self.search = search
    }

    /// The search folded once (case and diacritics ignored, spaces around it trimmed); nil when it selects all.
    var foldedSearch: String? {
        guard let search else { return nil }
        let trimmed = search.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : Self.fold(trimmed)
    }

    /// Whether `prospect` holds `folded` (from `foldedSearch`) in its name, email or organisation.
    static func matches(_ prospect: Prospect, folded: String) -> Bool {
        fold(prospect.name).contains(folded) || fold(prospect.email).contains(folded)
            || prospect.organization.map { fold($0).contains(folded) } ?? false
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
