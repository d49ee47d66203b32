import HTTPServer
import ProspectsCore
import ProspectsService

/// What the list page shows, read from and written to its query string, so that every state is a link:
/// `?tab=contacted&sort=recent&order=reverse&q=ada&rating=hot&tag=demo&event=expo&by=sam&page=2`. Defaults are left
/// out of the links.
struct ListState: Sendable, Hashable {
    var tab: ProspectFilter = .everyone
    var sort: ProspectSort = .name
    /// The sort order flipped (Z→A, oldest first).
    var reverse = false
    var search = ""
    /// Only leads so rated (`.none`: the unrated ones); nil: any.
    var rating: ProspectRating?
    /// Only leads with this tag, collected at this event, or by this person; empty: any.
    var tag = ""
    var event = ""
    var collectedBy = ""
    /// 1-based.
    var page = 1

    init(
        tab: ProspectFilter = .everyone, sort: ProspectSort = .name, reverse: Bool = false, search: String = "",
        rating: ProspectRating? = nil, tag: String = "", event: String = "", collectedBy: String = "", page: Int = 1
    ) {
        self.tab = tab
        self.sort = sort
        self.reverse = reverse
        self.search = search
        self.rating = rating
        self.tag = tag
        self.event = event
        self.collectedBy = collectedBy
        self.page = page
    }

    /// Reads the query; a value it does not know is taken as the default, so an old or edited link still opens.
    init(query: [HTTPField]) {
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        func text(_ name: String) -> String {
            let text = String((value(name) ?? "").prefix(200))
            return text.allSatisfy(\.isWhitespace) ? "" : text
        }
        tab = value("tab").flatMap(ProspectFilter.init(rawValue:)) ?? .everyone
        sort = value("sort").flatMap(ProspectSort.init(rawValue:)) ?? .name
        reverse = value("order") == "reverse"
        search = String((value("q") ?? "").prefix(200))
        rating = value("rating").flatMap(ProspectRating.init(rawValue:))
        tag = text("tag")
        event = text("event")
        collectedBy = text("by")
        page = value("page").flatMap(Int.init).map { min(max($0, 1), 1_000_000) } ?? 1
    }

    /// Whether a rating, tag, event or collector narrows the list.
    var isFiltered: Bool { rating != nil || !tag.isEmpty || !event.isEmpty || !collectedBy.isEmpty }

    /// The store query for this page of `pageSize` rows (nil: every row, for an export).
    func query(pageSize: Int?) -> ProspectQuery {
        ProspectQuery(
            filter: tab, search: search.isEmpty ? nil : search, rating: rating, tag: tag.isEmpty ? nil : tag,
            event: event.isEmpty ? nil : event, collectedBy: collectedBy.isEmpty ? nil : collectedBy, sort: sort,
            reverse: reverse, limit: pageSize, offset: pageSize.map { (page - 1) * $0 } ?? 0)
    }

    /// The query items that differ from the defaults, in a fixed order; `excluding` leaves some out (those a form
    /// sends itself).
    func items(excluding: Set<String> = []) -> [(String, String)] {
        var items: [(String, String)] = []
        if tab != .everyone { items.append(("tab", tab.rawValue)) }
        if sort != .name { items.append(("sort", sort.rawValue)) }
        if reverse { items.append(("order", "reverse")) }
        if !search.isEmpty { items.append(("q", search)) }
        if let rating { items.append(("rating", rating.rawValue)) }
        if !tag.isEmpty { items.append(("tag", tag)) }
        if !event.isEmpty { items.append(("event", event)) }
        if !collectedBy.isEmpty { items.append(("by", collectedBy)) }
        if page != 1 { items.append(("page", String(page))) }
        return items.filter { !excluding.contains($0.0) }
    }

    /// The list's URL in this state: `/` plus the query items that differ from the defaults.
    var url: String {
        let items = items()
        guard !items.isEmpty else { return "/" }
        return "/?" + URLEncoding.query(items)
    }

    /// This state changed by `change`, for a link.
    func with(_ change: (inout ListState) -> Void) -> ListState {
        var copy = self
        change(&copy)
        return copy
    }
}

/// Percent-encoding for query values and path segments.
enum URLEncoding {
    /// Everything but unreserved characters (RFC 3986) encoded, spaces as `%20`.
    static func queryValue(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }

    /// `items` as a query string (without `?`).
    static func query(_ items: [(String, String)]) -> String {
        items.map { "\($0.0)=\(queryValue($0.1))" }.joined(separator: "&")
    }
}
