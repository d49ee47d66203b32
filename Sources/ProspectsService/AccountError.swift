import ProspectStore
import ProspectsCore

/// Why an account could not be added or removed.
public enum AccountError: Error, Sendable, Hashable {
    /// Names are 1 to 64 letters, digits, `.`, `-`, `_` or `@`: they show on pages and in logs.
    case invalidName(String)
    /// A password shorter than `ProspectsService.minimumPasswordLength` characters.
    case passwordTooShort(minimum: Int)
    case nameTaken(String)
    case noSuchAccount(String)
    case store(StoreError)

    public var message: String {
        switch self {
        case .invalidName(let name):
            "invalid account name \"\(name)\": use 1 to 64 letters, digits, '.', '-', '_' or '@'"
        case .passwordTooShort(let minimum): "the password must have at least \(minimum) characters"
        case .nameTaken(let name): "an account named \(name) already exists"
        case .noSuchAccount(let name): "there is no account named \(name)"
        case .store(let error): error.message
        }
    }
}
