import Foundation

/// Reads import records from a JSON Lines file, streaming: one 64 KiB buffer and one line in memory.
///
/// Each line is one object with the keys `export --format json` writes: `name`, `email` (or `emailAddress`, as
/// the Hot Prospects app called it), optional `phone`, `organization`, `contacted` (or `isContacted`), `createdAt`
/// and `remindAt`; other keys are ignored. Blank lines are skipped. A line that is not such an object is `.malformed`, and `next` goes
/// on with the following line.
///
/// A class because it owns the open file, closed when the reader is released.
public final class JSONLinesRecordReader: ImportRecordReader {
    private let source: FileByteSource
    private let maxLineBytes: Int
    private var lineBytes: [UInt8] = []
    private var position = 0
    private var limit = 0
    private var line = 0

    /// Opens `path`. Lines longer than `maxLineBytes` are reported and skipped.
    public init(path: String, maxLineBytes: Int = 1 << 20) throws(ImportError) {
        source = try FileByteSource(path: path)
        self.maxLineBytes = maxLineBytes
    }

    public func next() throws(ImportError) -> ImportRecord? {
        while true {
            guard let complete = try readLine() else { return nil }
            guard complete else {
                throw .malformed(line: line, reason: "the line is longer than \(maxLineBytes) bytes")
            }
            if lineBytes.allSatisfy({ $0 == Byte.space || $0 == Byte.tab || $0 == Byte.carriageReturn }) { continue }
            return try record(from: lineBytes, line: line)
        }
    }

    /// Reads the next line into `lineBytes`, without its line end: nil at the end of the file, false when the
    /// line was too long (it is skipped to its end and `lineBytes` is left empty).
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
                    lineBytes.removeAll(keepingCapacity: false)
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
        guard let fields = object as? [String: Any] else {
            throw .malformed(line: line, reason: "not a JSON object")
        }

        func text(_ keys: String...) throws(ImportError) -> String? {
            for key in keys {
                guard let value = fields[key], !(value is NSNull) else { continue }
                guard let string = value as? String else {
                    throw .malformed(line: line, reason: "\"\(key)\" is not a string")
                }
                return string
            }
            return nil
        }

        guard let name = try text("name") else { throw .malformed(line: line, reason: "no \"name\"") }
        guard let email = try text("email", "emailAddress") else {
            throw .malformed(line: line, reason: "no \"email\"")
        }
        var contacted: Bool?
        for key in ["contacted", "isContacted"] {
            guard let value = fields[key], !(value is NSNull) else { continue }
            // JSONSerialization gives NSNumber for booleans, so 1 and 0 pass as true and false too; the words a CSV
            // column takes ("yes", "no") are taken here as well.
            if let flag = value as? Bool {
                contacted = flag
            } else if let text = value as? String, let flag = ImportColumns.parseContacted(text) {
                contacted = flag
            } else {
                throw .malformed(line: line, reason: "\"\(key)\" is not true or false")
            }
            break
        }
        func date(_ key: String) throws(ImportError) -> Date? {
            guard let text = try text(key) else { return nil }
            guard let date = ISO8601.parse(text) else {
                throw .malformed(line: line, reason: "\"\(key)\" is not an ISO 8601 time")
            }
            return date
        }
        return ImportRecord(
            name: name, email: email, phone: try text("phone").flatMap(JSONLinesRecordReader.nonBlank),
            organization: try text("organization").flatMap(JSONLinesRecordReader.nonBlank), contacted: contacted,
            createdAt: try date("createdAt"), remindAt: try date("remindAt"), line: line)
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
