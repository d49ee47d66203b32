import ProspectStore
import ProspectsCore

/// Why a change to one lead (a note, a rating, tags, an edit) was not made; nothing was changed.
public enum LeadChangeError: Error, Sendable, Hashable {
    /// No lead has this address or id.
    case notFound
    /// A value breaks the rules a scanned card's fields meet (the field is in the error).
    case invalid(ScanError)
    /// A note with nothing in it, or no tag to add or remove.
    case nothingGiven(String)
    /// The new address is this other lead's.
    case emailTaken(by: StoredProspect)
    case store(StoreError)

    /// A sentence for a person; input quoted in it is escaped.
    public var message: String {
        switch self {
        case .notFound: "no such prospect"
        case .invalid(let error): error.message
        case .nothingGiven(let what): what
        case .emailTaken(let other):
            "\(SafeText.escaped(other.prospect.email)) is already prospect #\(other.id) "
                + "(\(SafeText.escaped(other.prospect.name))); nothing was changed"
        case .store(let error): error.message
        }
    }
}
