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

/// The accounts kept in a store, beside its prospects. The table is made on first use, outside the prospect
/// schema's versions: a store that never had accounts has no table, and reads as having none.
public protocol AccountStore: AnyObject {
    /// Adds the account; false when one of that name exists (it is left as it was).
    func addAccount(_ account: Account) throws(StoreError) -> Bool
    /// Every account, by name.
    func accounts() throws(StoreError) -> [Account]
    func account(named name: String) throws(StoreError) -> Account?
    /// Removes the account; false when there was none of that name.
    func removeAccount(named name: String) throws(StoreError) -> Bool
}
