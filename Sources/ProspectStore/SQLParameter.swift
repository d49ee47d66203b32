/// The named values of one kind of statement. Each case is written `:case` in the SQL text, and its raw value is
/// where its value sits in `SQLArguments`, so no statement lists its values in an order of its own.
protocol SQLParameter: CaseIterable, RawRepresentable where RawValue == Int {}

extension SQLParameter {
    /// The placeholder SQL text writes for this parameter: `:emailKey`.
    var placeholder: String { ":\(self)" }

    /// The placeholders of every case, each at its raw value.
    static var placeholders: [String] {
        allCases.sorted { $0.rawValue < $1.rawValue }.map(\.placeholder)
    }
}

/// The values of one run of a statement whose parameters are `Parameter`, set by name; unset ones are NULL.
struct SQLArguments<Parameter: SQLParameter> {
    private(set) var values: [SQLValue]

    init() {
        values = Array(repeating: .null, count: Parameter.allCases.count)
    }

    subscript(parameter: Parameter) -> SQLValue {
        get { values[parameter.rawValue] }
        set { values[parameter.rawValue] = newValue }
    }
}
