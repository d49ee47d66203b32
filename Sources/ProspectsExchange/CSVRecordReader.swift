import Foundation
import ProspectsCore

/// Reads import records from a CSV file with a header row, streaming: one 64 KiB buffer and one record in memory.
///
/// Columns are found by name (see `ImportColumns`); other columns are ignored, and so are their bytes, so a
/// Latin-1 notes column does not block an import. A record whose field count differs from the header's, whose
/// used fields are not UTF-8, whose `contacted` is not a yes/no value or whose `createdAt` or `remindAt` is not an
/// ISO 8601 time is `.malformed`; `next` then goes on with the following record. The `'` our export puts before `=`, `+`, `-`, `@`, TAB or CR is removed, so
/// export → import round-trips; the price is that a cell really starting with `'=` loses its apostrophe.
///
/// A class because it owns the open file, closed when the reader is released.
public final class CSVRecordReader: ImportRecordReader {
    private let parser: CSVRowParser
    private let columns: ImportColumns
    private let header: [String]

    /// Opens `path` and reads its header row. Records longer than `maxRecordBytes` are reported and skipped.
    public init(path: String, maxRecordBytes: Int = 1 << 20) throws(ImportError) {
        parser = CSVRowParser(source: try FileByteSource(path: path), maxRecordBytes: maxRecordBytes)
        guard try parser.nextRow() else {
            throw .malformed(line: 1, reason: "the file is empty; a header row is required")
        }
        if let problem = parser.problem { throw .malformed(line: parser.rowLine, reason: "header row: \(problem)") }
        var names: [String] = []
        for index in 0..<parser.fieldCount {
            guard let name = CSVRecordReader.decode(parser.bytes, parser.range(ofField: index)) else {
                throw .malformed(line: parser.rowLine, reason: "header column \(index + 1) is not valid UTF-8")
            }
            names.append(name)
        }
        header = names
        columns = try ImportColumns(header: names)
    }

    public func next() throws(ImportError) -> ImportRecord? {
        guard try parser.nextRow() else { return nil }
        let line = parser.rowLine
        if let problem = parser.problem { throw .malformed(line: line, reason: problem) }
        guard parser.fieldCount == header.count else {
            throw .malformed(
                line: line, reason: "the record has \(parser.fieldCount) fields, the header \(header.count)")
        }

        let name: String
        switch columns.name {
        case .full(let column):
            name = try field(column, line: line)
        case .parts(let first, let last):
            var parts: [String] = []
            for column in [first, last].compactMap({ $0 }) {
                let part = try field(column, line: line).trimmingASCIISpaces()
                if !part.isEmpty { parts.append(part) }
            }
            name = parts.joined(separator: " ")
        }
        let email = try field(columns.email, line: line)
        let phone = try optionalField(columns.phone, line: line)
        let organization = try optionalField(columns.organization, line: line)
        var contacted: Bool?
        if let column = columns.contacted {
            let text = try field(column, line: line)
            if !text.trimmingASCIISpaces().isEmpty {
                guard let value = ImportColumns.parseContacted(text) else {
                    throw .malformed(
                        line: line, reason: "\"\(columnName(column))\" must be true/false, yes/no or 1/0")
                }
                contacted = value
            }
        }
        return ImportRecord(
            name: name, email: email, phone: phone, organization: organization, contacted: contacted,
            createdAt: try dateField(columns.createdAt, line: line),
            remindAt: try dateField(columns.remindAt, line: line),
            line: line)
    }

    /// An ISO 8601 time (as our export writes it) in field `column`, or nil when there is no such column or the cell
    /// is blank.
    private func dateField(_ column: Int?, line: Int) throws(ImportError) -> Date? {
        guard let column, let text = try optionalField(column, line: line) else { return nil }
        guard let date = ISO8601.parse(text.trimmingASCIISpaces()) else {
            throw .malformed(line: line, reason: "\"\(columnName(column))\" is not an ISO 8601 time")
        }
        return date
    }

    /// Field `column`, or nil when there is no such column or the cell is blank.
    private func optionalField(_ column: Int?, line: Int) throws(ImportError) -> String? {
        guard let column else { return nil }
        let text = try field(column, line: line)
        return text.trimmingASCIISpaces().isEmpty ? nil : text
    }

    /// Field `column` of the current record as text, without our export's formula guard.
    private func field(_ column: Int, line: Int) throws(ImportError) -> String {
        var range = parser.range(ofField: column)
        if range.count >= 2, parser.bytes[range.lowerBound] == Byte.apostrophe,
            CSVField.startsFormula(parser.bytes[range.lowerBound + 1])
        {
            range = (range.lowerBound + 1)..<range.upperBound
        }
        guard let text = CSVRecordReader.decode(parser.bytes, range) else {
            throw .malformed(line: line, reason: "the \"\(columnName(column))\" field is not valid UTF-8")
        }
        return text
    }

    /// A header name for messages, escaped: it comes from the file and may hold terminal escapes.
    private func columnName(_ column: Int) -> String {
        SafeText.escaped(header[column], limit: 40)
    }

    private static func decode(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        bytes.withUnsafeBufferPointer { String(validating: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}

@available(*, unavailable) extension CSVRecordReader: Sendable {}
