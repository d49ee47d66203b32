import Foundation
import ProspectStore
import ProspectsCore

/// The accounts that may sign in to `prospects serve`, kept in the store beside the prospects.
extension ProspectsService {
    public static let minimumPasswordLength = 8

    /// Adds an account with `password` kept as a slow salted hash (`PasswordHash`).
    public func addAccount(
        name: String, role: AccountRole, password: String, now: Date = Date(),
        iterations: Int = PasswordHash.defaultIterations
    ) throws(AccountError) -> Account {
        guard Self.isValidAccountName(name) else { throw .invalidName(name) }
        guard password.count >= Self.minimumPasswordLength else {
            throw .passwordTooShort(minimum: Self.minimumPasswordLength)
        }
        let account = Account(
            name: name, role: role, passwordHash: PasswordHash(password: password, iterations: iterations).encoded,
            createdAt: now)
        let added: Bool
        do { added = try accountStore(create: true).addAccount(account) } catch { throw .store(error) }
        guard added else { throw .nameTaken(name) }
        return account
    }

    /// Every account, by name.
    public func accounts() throws(StoreError) -> [Account] {
        try accountStore().accounts()
    }

    /// The account of that name, if there is one.
    public func account(named name: String) throws(StoreError) -> Account? {
        try accountStore().account(named: name)
    }

    public func removeAccount(named name: String) throws(AccountError) {
        let removed: Bool
        do { removed = try accountStore().removeAccount(named: name) } catch { throw .store(error) }
        guard removed else { throw .noSuchAccount(name) }
    }

    /// The account when `password` is its password; nil otherwise (an unknown name costs the same hashing, so
    /// that the time taken does not tell which names exist).
    public func authenticate(name: String, password: String) throws(StoreError) -> Account? {
        guard let account = try accountStore().account(named: name),
            let hash = PasswordHash(encoded: account.passwordHash)
        else {
            _ = Self.decoy.matches(password)
            return nil
        }
        return hash.matches(password) ? account : nil
    }

    /// Letters, digits, `.`, `-`, `_` and `@`, 1 to 64 of them.
    public static func isValidAccountName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_@".unicodeScalars.contains(scalar)
            }
    }

    private static let decoy = PasswordHash(password: "decoy")

    private func accountStore(create: Bool = false) throws(StoreError) -> any AccountStore {
        guard let accounts = try store(create: create) as? any AccountStore else {
            throw .unavailable("this store cannot keep accounts")
        }
        return accounts
    }
}
