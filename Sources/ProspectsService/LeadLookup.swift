import ProspectStore
import ProspectsCore

/// What a lead named by an email address, an id or a search turned out to be.
public enum LeadLookup: Sendable, Hashable {
    case found(StoredProspect)
    case none
    /// The search matched more than one lead: the first few, in name order.
    case several([StoredProspect])
}
