/// One row of an imported list that was not imported, and why (`Importer.Rejection`).
public struct ImportRejection: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The row was read, and its contact breaks the rules a scanned code must meet.
        case invalid(ScanError)
        /// The record itself could not be read: wrong field count, not UTF-8, not a JSON object, too long.
        case malformed(String)
    }

    /// The 1-based line the record starts on.
    public var line: Int
    public var reason: Reason

    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    /// A sentence a person understands.
    public var message: String {
        switch reason {
        case .invalid(let error): error.message
        case .malformed(let reason): reason
        }
    }
}
