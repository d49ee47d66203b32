import Foundation
import ProspectsCore

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
