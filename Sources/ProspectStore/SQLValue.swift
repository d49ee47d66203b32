import Foundation

/// A value bound to a statement parameter, or read from a column (`CopyableStore`), for either database.
///
/// Both stores keep the same types: integers, text, booleans, and dates as integer milliseconds since 1970, so
/// that a `Date` round-trips identically through SQLite and PostgreSQL.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
    case bool(Bool)

    /// Text, or NULL for nil.
    static func text(_ value: String?) -> SQLValue {
        value.map { .text($0) } ?? .null
    }

    /// A date as integer milliseconds since 1970 (see `Date.storeMilliseconds`).
    static func date(_ value: Date) -> SQLValue {
        .integer(value.storeMilliseconds)
    }

    /// A date, or NULL for nil.
    static func date(_ value: Date?) -> SQLValue {
        value.map { .date($0) } ?? .null
    }
}

extension Date {
    /// Milliseconds since 1970, rounded to the nearest: the precision both stores keep.
    var storeMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    /// The date `milliseconds` after 1970.
    init(storeMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
