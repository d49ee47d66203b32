import Foundation
import ProspectsCore

/// One result row, read by column index. SQLite and PostgreSQL rows both conform, so that one mapping turns a
/// row into a `StoredProspect` for both stores. Getters throw `.corrupt` when a value has the wrong type.
protocol DatabaseRow {
    func optionalInt64(_ column: Int) throws(StoreError) -> Int64?
    func optionalText(_ column: Int) throws(StoreError) -> String?
    func bool(_ column: Int) throws(StoreError) -> Bool
}

extension DatabaseRow {
    func int64(_ column: Int) throws(StoreError) -> Int64 {
        guard let value = try optionalInt64(column) else { throw .corrupt("unexpected NULL in column \(column)") }
        return value
    }

    func int(_ column: Int) throws(StoreError) -> Int {
        guard let value = Int(exactly: try int64(column)) else { throw .corrupt("integer out of range") }
        return value
    }

    func text(_ column: Int) throws(StoreError) -> String {
        guard let value = try optionalText(column) else { throw .corrupt("unexpected NULL in column \(column)") }
        return value
    }

    func date(_ column: Int) throws(StoreError) -> Date {
        Date(storeMilliseconds: try int64(column))
    }

    func optionalDate(_ column: Int) throws(StoreError) -> Date? {
        try optionalInt64(column).map(Date.init(storeMilliseconds:))
    }
}
