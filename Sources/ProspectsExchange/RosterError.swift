import ProspectsCore

/// Why an attendee list could not be read, or why one of its rows was refused.
///
/// `unreadable`, `wrongFormat`, `missingColumn` and `invalidColumns` stop the import; `refused` concerns one row,
/// and the reader goes on with the next.
public enum RosterError: Error, Sendable, Hashable {
    case unreadable(reason: String)
    case wrongFormat(String)
    /// The header has no column of that name (`--columns`, a profile), or none for a required field.
    case missingColumn(String, field: RosterColumns.Field, found: [String])
    /// A `--columns` entry that is not `FIELD=HEADER` with a known field.
    case invalidColumns(String)
    /// One row, at `line` (1-based), refused for `reason`.
    case refused(line: Int, reason: String)

    public var message: String {
        switch self {
        case .unreadable(let reason): "cannot read the attendee list: \(reason)"
        case .wrongFormat(let reason): reason
        case .missingColumn(let name, let field, let found):
            "the header row has no \"\(SafeText.escaped(name, limit: 40))\" column for the attendee's "
                + "\(field.rawValue) (give it with --columns \(field.rawValue)=HEADER); it reads "
                + found.prefix(8).map { "\"\(SafeText.escaped($0, limit: 40))\"" }.joined(separator: ", ")
                + (found.count > 8 ? ", …" : "")
        case .invalidColumns(let text):
            "--columns takes FIELD=HEADER pairs separated by commas (fields: "
                + RosterColumns.Field.allCases.map(\.rawValue).joined(separator: ", ")
                + "), not \(SafeText.escaped(text, limit: 60))"
        case .refused(let line, let reason): "line \(line): \(reason)"
        }
    }
}
