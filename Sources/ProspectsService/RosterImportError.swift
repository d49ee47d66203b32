import ProspectStore
import ProspectsCore
import ProspectsExchange

/// Why an attendee list was not imported at all; the store is untouched.
public enum RosterImportError: Error, Sendable, Hashable {
    /// The list cannot be read (missing, no header, no ID or name column, a bad `--columns`).
    case list(path: String, RosterError)
    case event(EventError)
    case store(StoreError)

    public var message: String {
        switch self {
        case .list(let path, let error): "\(path): \(error.message)"
        case .event(let error): error.message
        case .store(let error): error.message
        }
    }
}
