import Foundation
import ProspectStore
import ProspectsCore

/// Reads import records from a CSV file with a header row, streaming: one 64 KiB buffer and one record in memory.
///
/// Columns are found by name (see `ImportColumns`); other columns are ignored, and so are their bytes, so a
/// Latin-1 notes column does not block an import. Rows of empty cells are skipped, and missing cells at the end
/// of a row are empty. A record with more non-empty cells than the header, or whose name or email is not UTF-8,
/// is `.malformed`; `next` then goes on with the following record. A `contacted`, `createdAt` or `remindAt`
/// that cannot be read is left out (`ImportRecord.ignored` says so). The `'` our export puts before `=`, `+`, `-`,
/// `@`, TAB, CR or `'` is removed, so export → import round-trips (`CSVField`); the price is that a cell starting
/// with `'=` or `''` in a file written elsewhere loses an apostrophe.
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
        // Files of another kind, said as such rather than as a header with no "name" column.
        if parser.bytes.first == UInt8(ascii: "{") {
            throw .wrongFormat("the file looks like JSON Lines, not CSV: use --format json")
        }
        if parser.bytes.contains(0) || parser.bytes.starts(with: [0xFF, 0xFE])
            || parser.bytes.starts(with: [0xFE, 0xFF])
        {
            throw .wrongFormat("the file is UTF-16 (or binary), not UTF-8 text: save it as CSV UTF-8")
        }
        if let problem = parser.problem { throw .malformed(line: parser.rowLine, reason: "header row: \(problem)") }
        var names: [String] = []
        for index in 0..<parser.fieldCount {
            guard let name = CSVRecordReader.decode(parser.bytes, parser.range(ofField: index)) else {
                throw .wrongFormat(
                    "header column \(index + 1) is not valid UTF-8: save the file as CSV UTF-8 (Latin-1 and other "
                        + "encodings are not read)")
            }
            names.append(name)
        }
        header = names
        do {
            columns = try ImportColumns(header: names)
        } catch .missingColumn(let column, _) {
            throw .missingColumn(column, found: names.map { SafeText.escaped($0, limit: 40) })
        }
    }

    /// The header's columns that no field is read from (`ImportColumns.used`), blank names left out.
    public var ignoredColumns: [String] {
        header.indices.filter { !columns.used.contains($0) && !header[$0].trimmingASCIISpaces().isEmpty }
            .map { SafeText.escaped(header[$0], limit: 40) }
    }

    public func next() throws(ImportError) -> ImportRecord? {
        while try parser.nextRow() {
            // `,,,` or spaces only: an empty spreadsheet row, skipped like a blank line.
            if parser.problem == nil, parser.bytes.allSatisfy({ $0 == Byte.space || $0 == Byte.tab }) { continue }
            return try record()
        }
        return nil
    }

    /// The row the parser holds.
    private func record() throws(ImportError) -> ImportRecord {
        let line = parser.rowLine
        if let problem = parser.problem { throw .malformed(line: line, reason: problem) }
        // Fewer cells than the header: the missing ones at the end are empty, as spreadsheets write them. More cells
        // with something in them: an unquoted comma shifted the row, and every column after it would be wrong.
        if parser.fieldCount > header.count,
            (header.count..<parser.fieldCount).contains(where: { !parser.range(ofField: $0).isEmpty })
        {
            throw .malformed(
                line: line,
                reason: "the record has \(parser.fieldCount) cells, the header \(header.count) (a comma "
                    + "that is not in quotes?)")
        }

        var name: String
        var nameParts: [String]?
        switch columns.name {
        case .full(let column):
            name = try field(column, line: line)
        case .parts(let first, let last, let middle, let prefix, let suffix):
            var parts: [String] = []
            for column in [prefix, first, middle, last, suffix].compactMap({ $0 }) {
                let part = try field(column, line: line).trimmingASCIISpaces()
                if !part.isEmpty { parts.append(part) }
            }
            name = parts.joined(separator: " ")
            // Google's layout names every part: kept as the card's own, as a vCard's N is.
            if middle != nil || prefix != nil || suffix != nil {
                var components: [String] = []
                for column in [last, first, middle, prefix, suffix] {
                    components.append(try optionalField(column, line: line)?.trimmingASCIISpaces() ?? "")
                }
                nameParts = components.contains(where: { !$0.isEmpty }) ? components : nil
            }
        }
        // Google Contacts writes several addresses in one cell, separated by ` ::: `; split only when it does, as
        // this runs for every row.
        var email = try field(columns.email, line: line)
        var otherEmails: [String] = []
        if ImportRecord.hasSeparator(email) {
            let emails = ImportRecord.splitMultipleValues(email)
            email = emails.first ?? ""
            otherEmails = Array(emails.dropFirst())
        }
        // A row with no name but a nickname (Google's, Outlook's) is named by it.
        if columns.nickname != nil, name.trimmingASCIISpaces().isEmpty,
            let nickname = try optionalField(columns.nickname, line: line)
        {
            name = nickname
        }
        // Every phone: of several columns (Outlook's Business, Mobile, Home) and of one cell (Google's ` ::: `).
        var phones: [String] = []
        for column in columns.phones {
            guard let cell = try optionalField(column, line: line) else { continue }
            for phone in ImportRecord.splitMultipleValues(cell) where !phones.contains(phone) { phones.append(phone) }
        }
        var record = ImportRecord(
            name: name, email: email, phone: phones.first,
            organization: try optionalField(columns.organization, line: line), line: line)
        if phones.count > 1 { record.otherPhones = Array(phones.dropFirst()) }
        record.otherEmails = otherEmails
        for column in columns.otherEmails {
            guard let text = try optionalField(column, line: line) else { continue }
            record.otherEmails += ImportRecord.splitMultipleValues(text).filter { !$0.isEmpty }
        }
        if let column = columns.title { record.title = try optionalField(column, line: line) }
        record.nameParts = nameParts
        if columns.nameParts.contains(where: { $0 != nil }) {
            var parts: [String] = []
            for column in columns.nameParts {
                parts.append(try optionalField(column, line: line) ?? "")
            }
            if parts.contains(where: { !$0.isEmpty }) { record.nameParts = parts }
        }
        // The optional columns a list may fill in its own way: what cannot be read is left out, not the contact.
        if let column = columns.contacted, let text = try optionalField(column, line: line) {
            record.contacted = ImportColumns.parseContacted(text)
            if record.contacted == nil { record.ignored.append(ignoredCell(column, text, "is not yes or no")) }
        }
        // Column by column, not through an array of key paths: that array was made, and the record copied, on
        // every row.
        record.createdAt = try date(columns.createdAt, defaultHour: 0, line: line, ignored: &record.ignored)
        record.remindAt = try date(columns.remindAt, defaultHour: 9, line: line, ignored: &record.ignored)
        try readTeamWork(into: &record, line: line)
        return record
    }

    /// The rating, tags and notes columns: a rating `hot`, `warm`, `cold` or `none` in any case (Salesforce's
    /// Hot / Warm / Cold); tags separated by ` ::: ` (Google's Labels, without its own `* myContacts`); notes as our
    /// export writes them, separated by ` ::: `, or one note (Google's Notes, Salesforce's Description).
    private func readTeamWork(into record: inout ImportRecord, line: Int) throws(ImportError) {
        var carried = CarriedLead()
        var carries = false
        if let column = columns.rating, let text = try optionalField(column, line: line) {
            if let rating = ProspectRating(rawValue: text.trimmingASCIISpaces().lowercased()) {
                carried.rating = rating
                carries = true
            } else {
                record.ignored.append(ignoredCell(column, text, "is not hot, warm, cold or none"))
            }
        }
        if let column = columns.tags, let text = try optionalField(column, line: line) {
            // Outlook's Categories are separated by `;`, Google's Labels by ` ::: `.
            let outlook = ImportColumns.normalize(header[column]) == "categories" && !ImportRecord.hasSeparator(text)
            let labels =
                outlook
                ? text.split(separator: ";").map { String($0).trimmingASCIISpaces() }
                : ImportRecord.splitMultipleValues(text)
            for label in labels {
                // Google marks its own groups with `* `: `* myContacts` is every contact, `* starred` a star.
                let tag = label.hasPrefix("* ") ? String(label.dropFirst(2)) : label
                if tag.isEmpty || tag == "myContacts" { continue }
                carried.tags.append(tag)
                carries = true
            }
        }
        if let column = columns.notes, let text = try optionalField(column, line: line) {
            let separator = ProspectExporter.multipleValueSeparator
            let ours = header[column] == "notes"
            record.plainNotes = (ours ? text.components(separatedBy: separator) : [text]) + record.plainNotes
        }
        if carries { record.carried = carried }
    }

    /// The date in `column` (`Timestamp.parse`, at `defaultHour` when it gives no time), or nil when there is no
    /// such column, the cell is blank, or it holds no date, which `ignored` is then told.
    private func date(_ column: Int?, defaultHour: Int, line: Int, ignored: inout [String]) throws(ImportError)
        -> Date?
    {
        guard let column, let text = try optionalField(column, line: line) else { return nil }
        guard let date = Timestamp.parse(text, defaultHour: defaultHour) else {
            ignored.append(ignoredCell(column, text, "is not a date"))
            return nil
        }
        return date
    }

    /// `"remindAt" "call next week" is not a date`, for a cell the record goes in without.
    private func ignoredCell(_ column: Int, _ text: String, _ problem: String) -> String {
        "\"\(columnName(column))\" \"\(SafeText.escaped(text, limit: 40))\" \(problem)"
    }

    /// Field `column`, or nil when there is no such column or the cell is blank.
    private func optionalField(_ column: Int?, line: Int) throws(ImportError) -> String? {
        guard let column else { return nil }
        let text = try field(column, line: line)
        return text.trimmingASCIISpaces().isEmpty ? nil : text
    }

    /// Field `column` of the current record as text, without our export's formula guard.
    private func field(_ column: Int, line: Int) throws(ImportError) -> String {
        guard column < parser.fieldCount else { return "" }
        var range = parser.range(ofField: column)
        if range.count >= 2, parser.bytes[range.lowerBound] == Byte.apostrophe,
            CSVField.followsGuard(parser.bytes[range.lowerBound + 1])
        {
            range = (range.lowerBound + 1)..<range.upperBound
        }
        guard let text = CSVRecordReader.decode(parser.bytes, range) else {
            throw .malformed(
                line: line,
                reason: "the \"\(columnName(column))\" field is not valid UTF-8 (save the file as CSV UTF-8)")
        }
        // What a CRM writes in a required field it had nothing for (Salesforce's Web-to-Lead) is no value.
        if range.count == CSVProfile.notProvided.utf8.count && text == CSVProfile.notProvided { return "" }
        return text
    }

    /// A header name for messages, escaped: it comes from the file and may hold terminal escapes.
    private func columnName(_ column: Int) -> String {
        SafeText.escaped(header[column], limit: 40)
    }

    /// The cell's text, or nil when it is not UTF-8. `String(validating:as:)` is generic over its sequence and
    /// looked up type metadata for every cell; `String(decoding:as:)` on a buffer takes the standard library's fast
    /// path, and a cell is valid exactly when its text is its own bytes again (a repair puts U+FFFD where the bytes were not
    /// UTF-8, and they were not U+FFFD's own).
    private static func decode(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        bytes.withUnsafeBufferPointer { all in
            let cell = UnsafeBufferPointer(rebasing: all[range])
            let text = String(decoding: cell, as: UTF8.self)
            var copy = text
            let same = copy.withUTF8 { decoded in
                decoded.count == cell.count
                    && (cell.isEmpty || memcmp(decoded.baseAddress!, cell.baseAddress!, cell.count) == 0)
            }
            return same ? text : nil
        }
    }
}

@available(*, unavailable) extension CSVRecordReader: Sendable {}
