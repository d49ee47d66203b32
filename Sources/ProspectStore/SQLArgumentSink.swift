import Foundation

/// Where a statement's values are set, parameter by parameter: one run's `SQLArguments`, or the last row of
/// `PackedArguments`. What a statement binds is then written once for both.
protocol SQLArgumentSink<Parameter> {
    associatedtype Parameter: SQLParameter

    /// Text, or NULL for nil.
    mutating func set(_ parameter: Parameter, text: String?)
    /// An integer, or NULL for nil.
    mutating func set(_ parameter: Parameter, integer: Int64?)
    /// A boolean: PostgreSQL's own type, SQLite's 0 or 1.
    mutating func set(_ parameter: Parameter, bool: Bool)
}

extension SQLArgumentSink {
    /// A date as integer milliseconds since 1970 (`Date.storeMilliseconds`), or NULL for nil.
    mutating func set(_ parameter: Parameter, date: Date?) {
        set(parameter, integer: date?.storeMilliseconds)
    }
}

extension SQLArguments: SQLArgumentSink {
    mutating func set(_ parameter: Parameter, text: String?) { self[parameter] = .text(text) }
    mutating func set(_ parameter: Parameter, integer: Int64?) {
        self[parameter] = integer.map { .integer($0) } ?? .null
    }
    mutating func set(_ parameter: Parameter, bool: Bool) { self[parameter] = .bool(bool) }
}

extension PackedArguments: SQLArgumentSink {
    mutating func set(_ parameter: Parameter, bool: Bool) { set(parameter, integer: bool ? 1 : 0) }
}
