import ProspectsCore
import ProspectsService

/// What the quick-scan card shows of a lead the server stored: who it is, whether this scan made it, and how often
/// it was scanned (the card's "seen before (scan N)"), with its rating and tags, in JSON.
struct LeadCard: Encodable {
    var id: Int64
    var name: String
    var email: String
    var organization: String
    /// True when this scan made the lead.
    var new: Bool
    /// The lead's scans so far, this one counted.
    var scans: Int
    var rating: String
    var tags: [String]

    init(_ stored: StoredProspect, new: Bool) {
        id = stored.id
        name = stored.prospect.name
        email = stored.prospect.email
        organization = stored.prospect.organization ?? ""
        self.new = new
        scans = stored.scanCount
        rating = stored.rating.rawValue
        tags = stored.tags
    }
}

extension WebApplication {
    /// The card of lead `id` as the store holds it now; nil when it is gone.
    func leadCard(_ id: Int64?, new: Bool) throws -> LeadCard? {
        guard let id else { return nil }
        return try services.withService { try $0.details(of: .id(id)) }.map { LeadCard($0.stored, new: new) }
    }
}
