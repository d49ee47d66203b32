/// Why a list could not be imported, or why one of its records was skipped.
///
/// `unreadable` and `missingColumn` stop an import; `malformed` concerns one record, and the reader can go on
/// to the next one if the caller wants to.
public enum ImportError: Error, Sendable, Hashable {
    /// The file could not be opened or read (missing, permission denied, a directory, an I/O error).
    case unreadable(reason: String)
    /// The CSV header row has no column for a required field (`name` or `email`).
    case missingColumn(String)
    /// One record could not be read; `line` is the 1-based line it starts on.
    case malformed(line: Int, reason: String)

    /// A sentence a person understands.
    public var message: String {
        switch self {
        case .unreadable(let reason):
            "cannot read the list: \(reason)"
        case .missingColumn(let column):
            "the header row has no \"\(column)\" column (accepted names: \(ImportColumns.acceptedNames(for: column)))"
        case .malformed(let line, let reason):
            "line \(line): \(reason)"
        }
    }
}

extension ImportError: CustomStringConvertible {
    public var description: String { message }
}
