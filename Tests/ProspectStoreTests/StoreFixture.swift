import Foundation
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectStore

/// The stores the conformance suite runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }
}

/// A fresh, empty store location of one kind for one test: an SQLite file in its own folder, or a new
/// PostgreSQL database on the shared test server.
final class StoreFixture {
    let kind: StoreKind
    let location: StoreLocation
    /// Keeps the SQLite folder alive as long as the fixture.
    private let folder: TemporaryDirectory?

    init(_ kind: StoreKind) throws {
        self.kind = kind
        switch kind {
        case .sqlite:
            let folder = try TemporaryDirectory()
            self.folder = folder
            location = .sqlite(path: folder.file("prospects.sqlite"))
        case .postgres:
            folder = nil
            location = .postgres(url: try PostgresTestServer.shared().makeDatabase())
        }
    }

    /// The store; keep the fixture as long as it is used (its folder holds the SQLite file, and a store whose file
    /// is deleted refuses to commit).
    func open() throws(StoreError) -> any ProspectStore {
        try location.open()
    }

    /// Runs SQL straight on the database, bypassing the store (and its migrations): builds old schemas.
    func executeRaw(_ statements: [String]) throws(StoreError) {
        switch location {
        case .sqlite(let path):
            let database = try SQLiteDatabase(path: path)
            for sql in statements { try database.executeScript(sql) }
        case .postgres(let url):
            let connection = try PostgresConnection(url: url)
            for sql in statements { try connection.execute(sql) }
        }
    }
}

extension StoreFixture {
    /// The columns of `table`, in order, read straight from the database.
    func columns(of table: String) throws(StoreError) -> [String] {
        switch location {
        case .sqlite(let path):
            try SQLiteDatabase(path: path).query("SELECT name FROM pragma_table_info($1) ORDER BY cid", [.text(table)])
            {
                row throws(StoreError) in try row.text(0)
            }
        case .postgres(let url):
            try PostgresConnection(url: url).execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position",
                [.text(table)]
            ).rows.map { row throws(StoreError) in try row.text(0) }
        }
    }
}

/// Runs `body` and checks that it throws a `StoreError` that `matches` accepts.
func expectStoreError(
    _ body: () throws(StoreError) -> Void, sourceLocation: SourceLocation = #_sourceLocation,
    matches: (StoreError) -> Bool
) {
    do {
        try body()
        Issue.record("expected a StoreError, got none", sourceLocation: sourceLocation)
    } catch {
        #expect(matches(error), "unexpected error: \(error)", sourceLocation: sourceLocation)
    }
}

/// A date at whole milliseconds, the precision both stores keep.
func date(_ milliseconds: Int64) -> Date {
    Date(storeMilliseconds: milliseconds)
}

func sighting(
    _ name: String, _ email: String, source: String = "a.png", at milliseconds: Int64 = 1_700_000_000_000,
    phone: String? = nil, organization: String? = nil
) -> Sighting {
    Sighting(
        prospect: .init(name: name, email: email, phone: phone, organization: organization), source: source,
        seenAt: date(milliseconds))
}
