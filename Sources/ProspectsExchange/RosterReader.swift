import Foundation
import ProspectsCore

/// One attendee as an attendee list gives them.
public struct RosterRow: Sendable, Hashable {
    public var line: Int
    public var attendeeID: String
    public var name: String
    public var email: String?
    public var organization: String?
    public var title: String?
    public var phone: String?
}

/// Reads an event's attendee list (CSV with a header row), streaming, one row at a time: the columns found by
/// `RosterColumns`. A row without an ID or a name, or with an address that is none, is `refused` with its line;
/// `next` then goes on with the following row.
///
/// A class because it owns the open file, closed when the reader is released.
public final class RosterReader {
    private let parser: CSVRowParser
    private let columns: RosterColumns

    public init(
        path: String, profile: RosterColumns.Profile? = nil, columns given: [RosterColumns.Field: String] = [:],
        maxRecordBytes: Int = 1 << 20
    ) throws(RosterError) {
        let source: FileByteSource
        do { source = try FileByteSource(path: path) } catch {
            if case .unreadable(let reason) = error { throw .unreadable(reason: reason) }
            throw .unreadable(reason: error.message)
        }
        let parser = CSVRowParser(source: source, maxRecordBytes: maxRecordBytes)
        self.parser = parser
        let hasHeader: Bool
        do { hasHeader = try parser.nextRow() } catch { throw .unreadable(reason: error.message) }
        guard hasHeader else { throw .wrongFormat("the file is empty; a header row is required") }
        if parser.bytes.contains(0) || parser.bytes.starts(with: [0xFF, 0xFE]) {
            throw .wrongFormat("the file is UTF-16 (or binary), not UTF-8 text: save it as CSV UTF-8")
        }
        let header = (0..<parser.fieldCount).map { index in
            String(decoding: parser.bytes[parser.range(ofField: index)], as: UTF8.self)
        }
        columns = try RosterColumns(header: header, profile: profile, given: given)
    }

    /// The next row, nil at the end; throws `.refused` for a row that cannot be an attendee (the next call goes on).
    public func next() throws(RosterError) -> RosterRow? {
        while true {
            let more: Bool
            do { more = try parser.nextRow() } catch {
                if case .malformed(let line, let reason) = error { throw .refused(line: line, reason: reason) }
                throw .unreadable(reason: error.message)
            }
            guard more else { return nil }
            // An empty spreadsheet row (`,,,`), skipped like a blank line.
            if parser.problem == nil, parser.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            return try row()
        }
    }

    private func row() throws(RosterError) -> RosterRow {
        let line = parser.rowLine
        if let problem = parser.problem { throw .refused(line: line, reason: problem) }
        func cell(_ field: RosterColumns.Field) throws(RosterError) -> String? {
            guard let column = columns.indices[field], column < parser.fieldCount else { return nil }
            let bytes = parser.bytes[parser.range(ofField: column)]
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.utf8.elementsEqual(bytes) else {
                throw .refused(
                    line: line, reason: "the \(field.rawValue) is not valid UTF-8 (save the file as CSV UTF-8)")
            }
            switch FreeText.line(text, field: field.rawValue) {
            case .success(let value): return value
            case .failure(let error): throw .refused(line: line, reason: error.message)
            }
        }
        guard let id = try cell(.id) else { throw .refused(line: line, reason: "no attendee ID") }
        let full = try cell(.name)
        let first = try cell(.first)
        let last = try cell(.last)
        let name = full ?? [first, last].compactMap { $0 }.joined(separator: " ")
        guard !name.isEmpty else { throw .refused(line: line, reason: "attendee \(SafeText.escaped(id)) has no name") }
        var email = try cell(.email)
        if let text = email {
            switch EmailAddress.validate(text) {
            case .success(let address): email = address
            case .failure(let problem):
                throw .refused(
                    line: line,
                    reason: "attendee \(SafeText.escaped(id))'s email \(SafeText.escaped(text, limit: 60)) "
                        + "is no address: \(problem.message)")
            }
        }
        return RosterRow(
            line: line, attendeeID: id, name: name, email: email, organization: try cell(.company),
            title: try cell(.title), phone: try cell(.phone))
    }
}

@available(*, unavailable) extension RosterReader: Sendable {}
