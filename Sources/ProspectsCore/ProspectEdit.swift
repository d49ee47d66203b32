/// Changes to a prospect's own fields; nil leaves a field as it is. Values are stored as given: validate them first
/// (`PayloadParser.prospect`), as a scanned card's are.
public struct ProspectEdit: Sendable, Hashable {
    public var name: String?
    /// A new address re-keys the prospect; one another prospect has is refused (`EditOutcome.emailTaken`).
    public var email: String?
    /// `.some(nil)` clears the field.
    public var phone: String??
    public var organization: String??
    public var title: String??

    public init(
        name: String? = nil, email: String? = nil, phone: String?? = nil, organization: String?? = nil,
        title: String?? = nil
    ) {
        self.name = name
        self.email = email
        self.phone = phone
        self.organization = organization
        self.title = title
    }
}

/// What `edit` did.
public enum EditOutcome: Sendable, Hashable {
    /// The prospect as it now is.
    case edited(StoredProspect)
    case notFound
    /// The new address is another prospect's (this one), so nothing changed.
    case emailTaken(by: StoredProspect)
}
