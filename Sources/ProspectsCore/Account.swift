import Foundation

/// What a signed-in person may do in `prospects serve`: staff see, scan, mark, note and rate; admins also delete,
/// import, export and manage accounts.
public enum AccountRole: String, Sendable, Hashable, CaseIterable {
    case staff, admin
}

/// A person who may sign in to `prospects serve`. The password is kept only as a slow salted hash
/// (`PasswordHash`'s encoding), never in clear.
public struct Account: Sendable, Hashable {
    public var name: String
    public var role: AccountRole
    public var passwordHash: String
    public var createdAt: Date

    public init(name: String, role: AccountRole, passwordHash: String, createdAt: Date) {
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}
