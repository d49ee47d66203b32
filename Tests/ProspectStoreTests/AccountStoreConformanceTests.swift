import Foundation
import ProspectStore
import ProspectsCore
import Testing

/// The accounts kept beside the prospects, run unchanged against every `StoreKind`.
@Suite("AccountStore conformance")
struct AccountStoreConformanceTests {
    static func accounts(_ store: any ProspectStore) throws -> any AccountStore {
        try #require(store as? any AccountStore)
    }

    @Test(arguments: StoreKind.allCases)
    func aStoreWithoutAccountsReadsAsHavingNoneAndIsLeftUnchanged(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let accounts = try Self.accounts(try fixture.open())
        #expect(try accounts.accounts().isEmpty)
        #expect(try accounts.account(named: "ada") == nil)
        #expect(try accounts.removeAccount(named: "ada") == false)
    }

    @Test(arguments: StoreKind.allCases)
    func addsListsFindsAndRemovesAccounts(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let accounts = try Self.accounts(try fixture.open())
        let ada = Account(
            name: "ada", role: .admin, passwordHash: "pbkdf2-sha256$1$00$00",
            createdAt: Date(timeIntervalSince1970: 1_780_000_000))
        let bob = Account(
            name: "bob", role: .staff, passwordHash: "pbkdf2-sha256$1$01$01",
            createdAt: Date(timeIntervalSince1970: 1_780_000_060))
        #expect(try accounts.addAccount(bob))
        #expect(try accounts.addAccount(ada))
        var impostor = ada
        impostor.role = .staff
        impostor.passwordHash = "other"
        #expect(try accounts.addAccount(impostor) == false, "a name already taken is refused")
        #expect(try accounts.accounts() == [ada, bob])
        #expect(try accounts.account(named: "ada") == ada, "the first account of a name is kept as it was")
        #expect(try accounts.account(named: "ADA") == nil, "names are exact")
        // Another connection sees the same accounts: they are in the store, not in the process.
        #expect(try Self.accounts(try fixture.open()).accounts() == [ada, bob])
        #expect(try accounts.removeAccount(named: "bob"))
        #expect(try accounts.removeAccount(named: "bob") == false)
        #expect(try accounts.accounts() == [ada])
    }

    @Test(arguments: StoreKind.allCases)
    func accountsLeaveTheProspectsAlone(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        _ = try Self.accounts(store).addAccount(
            Account(name: "ada", role: .admin, passwordHash: "x", createdAt: Date(timeIntervalSince1970: 0)))
        #expect(try store.count() == 0)
        #expect(try store.list(filter: .everyone, sort: .name, reverse: false).isEmpty)
    }
}
