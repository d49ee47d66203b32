/// Why a list could not be imported, or why one of its records was skipped.
///
/// `unreadable`, `missingColumn` and `wrongFormat` stop an import; `malformed` concerns one record, and the reader
/// can go on to the next one if the caller wants to.
public enum ImportError: Error, Sendable, Hashable {
    /// The file could not be opened or read (missing, permission denied, a directory, an I/O error).
    case unreadable(reason: String)
    /// The CSV header row has no column for a required field (`name` or `email`); `found` is the header as read.
    case missingColumn(String, found: [String] = [])
    /// The file is another kind of file than the format asked for (JSON Lines given as CSV, a JSON array, UTF-16).
    case wrongFormat(String)
    /// One record could not be read; `line` is the 1-based line it starts on.
    case malformed(line: Int, reason: String)

    /// A sentence a person understands.
    public var message: String {
        switch self {
        case .unreadable(let reason):
            "cannot read the list: \(reason)"
        case .missingColumn(let column, let found):
            "the header row has no \"\(column)\" column (accepted names: \(ImportColumns.acceptedNames(for: column)))"
                + (found.isEmpty ? "" : "; it reads " + found.prefix(6).map { "\"\($0)\"" }.joined(separator: ", "))
                + (found.count > 6 ? ", …" : "")
                + (found.contains { $0.contains("@") } ? " — the first line must name the columns" : "")
        case .wrongFormat(let reason):
            reason
        case .malformed(let line, let reason):
            "line \(line): \(reason)"
        }
    }
}

extension ImportError: CustomStringConvertible {
    public var description: String { message }
}
