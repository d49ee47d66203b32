import Foundation
import ProspectStore
import ProspectsCore

/// Reads import records from a JSON Lines file, streaming: one 64 KiB buffer and one line in memory.
///
/// Each line is one object with the keys `export --format json` writes: `name`, `email` (or `emailAddress`, as
/// the Hot Prospects app called it), optional `phone`, `organization`, `contacted` (or `isContacted`), `createdAt`
/// and `remindAt`, in any case; other keys are ignored. Blank lines are skipped. A line that is not such an object
/// is `.malformed`, and `next` goes on with the following line; an optional value that cannot be read is left out
/// (`ImportRecord.ignored` says so). A JSON array is refused whole (`.wrongFormat`).
///
/// A class because it owns the open file, closed when the reader is released.
public final class JSONLinesRecordReader: ImportRecordReader {
    private let source: FileByteSource
    private let maxLineBytes: Int
    private var lineBytes: [UInt8] = []
    private var position = 0
    private var limit = 0
    private var line = 0
    /// A line that is not blank has been read.
    private var sawRecord = false
    /// What `init` read and `next` has not returned yet: the first line that is not blank (in `lineBytes`), or
    /// a first line too long to be one.
    private var pending: (line: Int, tooLong: Bool)?

    /// Opens `path` and reads up to its first line that is not blank: a file that is no JSON Lines (a JSON array,
    /// a CSV file) is refused here, before anything (a store) is opened for it. Lines longer than `maxLineBytes`
    /// are reported and skipped.
    public init(path: String, maxLineBytes: Int = 1 << 20) throws(ImportError) {
        source = try FileByteSource(path: path)
        self.maxLineBytes = maxLineBytes
        while let complete = try readLine() {
            if isBlank(lineBytes) && complete { continue }
            // A minified array of thousands of contacts is one line over the limit: still refused whole.
            try checkFirstLine()
            pending = (line, tooLong: !complete)
            return
        }
    }

    public func next() throws(ImportError) -> ImportRecord? {
        if let first = pending {
            pending = nil
            if first.tooLong {
                throw .malformed(line: first.line, reason: "the line is longer than \(maxLineBytes) bytes")
            }
            return try record(from: lineBytes, line: first.line)
        }
        while true {
            guard let complete = try readLine() else { return nil }
            guard complete else {
                throw .malformed(line: line, reason: "the line is longer than \(maxLineBytes) bytes")
            }
            if isBlank(lineBytes) { continue }
            if !sawRecord { try checkFirstLine() }
            return try record(from: lineBytes, line: line)
        }
    }

    private func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == Byte.space || $0 == Byte.tab || $0 == Byte.carriageReturn }
    }

    /// Refuses a file whose first line that is not blank says it is no JSON Lines.
    private func checkFirstLine() throws(ImportError) {
        sawRecord = true
        // A JSON array, pretty-printed or not: read line by line, some of its lines would pass for records.
        let start = lineBytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let first = lineBytes[start...].first(where: { $0 != Byte.space && $0 != Byte.tab })
        if first == UInt8(ascii: "[") {
            throw .wrongFormat(
                "the file is a JSON array; import --format json reads JSON Lines, one object per line "
                    + "(jq -c '.[]' FILE turns an array into them)")
        }
        // A CSV file given as JSON would otherwise fail once per row.
        if first != UInt8(ascii: "{") && lineBytes.contains(where: { $0 == 0x2C || $0 == 0x3B || $0 == 0x09 }) {
            throw .wrongFormat("the file looks like CSV, not JSON Lines: use --format csv")
        }
    }

    /// Reads the next line into `lineBytes`, without its line end: nil at the end of the file, false when the
    /// line was too long (it is skipped to its end and `lineBytes` keeps only its first 256 bytes, which still say
    /// whether the file is a JSON array or CSV).
    private func readLine() throws(ImportError) -> Bool? {
        lineBytes.removeAll(keepingCapacity: true)
        var tooLong = false
        var sawAny = false
        while true {
            if position == limit {
                guard try refill() else {
                    guard sawAny else { return nil }
                    line += 1
                    return !tooLong
                }
            }
            sawAny = true
            let buffer = UnsafeBufferPointer(source.buffer)
            var end = position
            while end < limit && buffer[end] != Byte.lineFeed { end += 1 }
            if !tooLong {
                lineBytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<end]))
                if lineBytes.count > maxLineBytes {
                    tooLong = true
                    lineBytes = Array(lineBytes.prefix(256))
                }
            }
            position = end
            if end < limit {
                position += 1
                line += 1
                return !tooLong
            }
        }
    }

    private func record(from bytes: [UInt8], line: Int) throws(ImportError) -> ImportRecord {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw .malformed(line: line, reason: "not valid JSON")
        }
        guard let object = object as? [String: Any] else {
            throw .malformed(line: line, reason: "not a JSON object")
        }
        // Keys in any case (`Email`, `isContacted`), as CSV headers are. Where one key is written in several cases,
        // our own spelling wins, else the first in byte order: never whichever a dictionary happens to list first.
        let fields = Dictionary(object.map { ($0.key.lowercased(), ($0.key, $0.value)) }) { a, b in
            a.0 < b.0 ? a : b
        }

        /// The value under the first of `keys` present and not null: its key as the file wrote it, and the value.
        func value(_ keys: String...) -> (key: String, value: Any)? {
            for key in keys {
                if let exact = object[key], !(exact is NSNull) { return (key, exact) }
                if let (written, found) = fields[key.lowercased()], !(found is NSNull) { return (written, found) }
            }
            return nil
        }
        func text(_ keys: String...) throws(ImportError) -> String? {
            guard let (key, found) = keys.lazy.compactMap({ value($0) }).first else { return nil }
            guard let string = found as? String else {
                throw .malformed(line: line, reason: "\"\(SafeText.escaped(key, limit: 40))\" is not a string")
            }
            return string
        }

        guard let name = try text("name") else { throw .malformed(line: line, reason: "no \"name\"") }
        guard let email = try text("email", "emailAddress") else {
            throw .malformed(line: line, reason: "no \"email\"")
        }
        var record = ImportRecord(name: name, email: email, line: line)
        // The optional keys a list may fill in its own way: what cannot be read is left out, not the contact.
        func ignore(_ key: String, _ found: Any, _ problem: String) {
            let shown = SafeText.escaped(Self.json(found), limit: 40)
            record.ignored.append("\"\(SafeText.escaped(key, limit: 40))\" \(shown) \(problem)")
        }
        for (keyName, keyPath) in [("phone", \ImportRecord.phone), ("organization", \.organization)] {
            guard let (key, found) = value(keyName) else { continue }
            // A number is how a spreadsheet turned into JSON writes a phone number.
            // (JSON's true and false come as a subclass of NSNumber, and are no phone number.)
            let number = (found as? NSNumber).flatMap { type(of: $0) == NSNumber.self ? $0.stringValue : nil }
            guard let text = found as? String ?? number else {
                ignore(key, found, "is not text")
                continue
            }
            record[keyPath: keyPath] = Self.nonBlank(text)
        }
        if let (key, found) = value("title") {
            if let title = found as? String {
                record.title = Self.nonBlank(title)
            } else {
                ignore(key, found, "is not text")
            }
        }
        if let (key, found) = value("nameParts") {
            let parts = found as? [String: Any]
            let components = ["family", "given", "additional", "prefix", "suffix"].map { parts?[$0] as? String ?? "" }
            if parts == nil { ignore(key, found, "is not an object") } else { record.nameParts = components }
        }
        if let (key, found) = value("otherEmails") {
            if let emails = found as? [String] {
                record.otherEmails = emails
            } else {
                ignore(key, found, "is not a list of text")
            }
        }
        if let (key, found) = value("otherPhones") {
            if let phones = found as? [String] {
                record.otherPhones = phones
            } else {
                ignore(key, found, "is not a list of text")
            }
        }
        if let (key, found) = value("contacted", "isContacted") {
            // JSONSerialization gives NSNumber for booleans, so 1 and 0 pass as true and false too; the words a CSV
            // column takes ("yes", "no") are taken here as well.
            record.contacted = found as? Bool ?? (found as? String).flatMap(ImportColumns.parseContacted)
            if record.contacted == nil { ignore(key, found, "is not true or false") }
        }
        for (keyName, hour, keyPath) in [("createdAt", 0, \ImportRecord.createdAt), ("remindAt", 9, \.remindAt)] {
            guard let (key, found) = value(keyName) else { continue }
            record[keyPath: keyPath] = (found as? String).flatMap { Timestamp.parse($0, defaultHour: hour) }
            if record[keyPath: keyPath] == nil { ignore(key, found, "is not a date") }
        }
        let extras = Self.carried(createdAt: record.createdAt) { key in value(key) }
        record.carried = extras.carried
        record.plainNotes = extras.plainNotes
        for (key, found, problem) in extras.ignored { ignore(key, found, problem) }
        return record
    }

    /// The team's work on the lead and its history, as our export writes them (`ProspectExporter.jsonObject`):
    /// `rating`, `tags`, `notes` (`{writtenAt, author, text}`, or text alone), `history`
    /// (`{source, seenAt, event, collectedBy}`), `lastSeenAt`, `scanCount`; without a history, `source`, `event`
    /// and `collectedBy` (what `list --json` writes) are the first sighting. A value that cannot be read is left
    /// out (and said); the lead goes in without it.
    private static func carried(createdAt: Date?, value: (String) -> (key: String, value: Any)?) -> (
        carried: CarriedLead?, plainNotes: [String], ignored: [(key: String, value: Any, problem: String)]
    ) {
        var carried = CarriedLead()
        var carries = false
        var plainNotes: [String] = []
        var ignored: [(key: String, value: Any, problem: String)] = []
        func ignore(_ key: String, _ found: Any, _ problem: String) { ignored.append((key, found, problem)) }
        if let (key, found) = value("rating") {
            if let text = found as? String, let rating = ProspectRating(rawValue: text.lowercased()) {
                carried.rating = rating
                carries = true
            } else {
                ignore(key, found, "is not hot, warm, cold or none")
            }
        }
        if let (key, found) = value("tags") {
            if let tags = found as? [String] {
                carried.tags = tags
                carries = true
            } else {
                ignore(key, found, "is not a list of text")
            }
        }
        if let (key, found) = value("notes") {
            if let notes = found as? [Any] {
                for note in notes {
                    if let text = note as? String {
                        plainNotes.append(text)
                    } else if let object = note as? [String: Any], let text = object["text"] as? String,
                        let writtenAt = (object["writtenAt"] as? String).flatMap({ Timestamp.parse($0) })
                    {
                        let author = object["author"] as? String ?? ""
                        carried.notes.append(ProspectNote(writtenAt: writtenAt, author: author, text: text))
                        carries = true
                    } else {
                        ignore(key, note, "is not a note (writtenAt, author, text)")
                    }
                }
            } else {
                ignore(key, found, "is not a list of notes")
            }
        }
        if let (key, found) = value("history") {
            if let scans = found as? [Any] {
                for scan in scans {
                    if let object = scan as? [String: Any], let source = object["source"] as? String,
                        let seenAt = (object["seenAt"] as? String).flatMap({ Timestamp.parse($0) })
                    {
                        carried.history.append(
                            ScanRecord(
                                source: source, seenAt: seenAt, event: object["event"] as? String,
                                collectedBy: object["collectedBy"] as? String))
                        carries = true
                    } else {
                        ignore(key, scan, "is not a sighting (source, seenAt)")
                    }
                }
            } else {
                ignore(key, found, "is not a list of sightings")
            }
        }
        if carried.history.isEmpty, let (_, found) = value("source"), let source = found as? String,
            let createdAt
        {
            carried.history.append(
                ScanRecord(
                    source: source, seenAt: createdAt, event: value("event")?.value as? String,
                    collectedBy: value("collectedBy")?.value as? String))
            carries = true
        }
        if let (key, found) = value("lastSeenAt") {
            if let date = (found as? String).flatMap({ Timestamp.parse($0) }) {
                carried.lastSeenAt = date
                carries = true
            } else {
                ignore(key, found, "is not a date")
            }
        }
        if let (key, found) = value("scanCount") {
            if let number = found as? NSNumber, type(of: number) == NSNumber.self, number.intValue >= 1 {
                carried.scanCount = number.intValue
                carries = true
            } else {
                ignore(key, found, "is not a count")
            }
        }
        return (carries ? carried : nil, plainNotes, ignored)
    }

    /// A value from `JSONSerialization` written back as JSON, as the file had it, for messages: `{"x":1}`, not
    /// Swift's `["x": 1]`.
    static func json(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func nonBlank(_ text: String) -> String? {
        text.trimmingASCIISpaces().isEmpty ? nil : text
    }

    private func refill() throws(ImportError) -> Bool {
        guard let chunk = try source.nextChunk() else { return false }
        position = chunk.lowerBound
        limit = chunk.upperBound
        return true
    }
}

@available(*, unavailable) extension JSONLinesRecordReader: Sendable {}
