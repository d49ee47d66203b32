import ProspectStore
import ProspectsCore

/// Reads the cards of a `.vcf` file (vCard 2.1, 3.0 or 4.0, any number of cards), streaming: one 64 KiB buffer and
/// one card in memory.
///
/// Each card becomes a record holding the card's own bytes (`ImportRecord.card`), which import parses exactly as a
/// scanned vCard. Pictures and other binary properties (`PHOTO`, `LOGO`, `SOUND`, `KEY`) are left out: a contact
/// holds no image, and a phone's export often carries one per card. Text between cards is skipped. A card longer
/// than `maxCardBytes` without them is `.malformed`, and `next` goes on with the following card.
///
/// A class because it owns the open file, closed when the reader is released.
public final class VCardFileReader: ImportRecordReader {
    private let source: FileByteSource
    private let maxCardBytes: Int
    private var chunk: Range<Int>?
    private var position = 0
    private var line = 0
    private var atEnd = false
    /// A line read ahead: the first of the file (read by `init`), or the property after a dropped picture.
    private var pending: [UInt8]?

    /// Opens `path` and refuses a file whose first line that is not blank is not `BEGIN:VCARD`.
    public init(path: String, maxCardBytes: Int = 1 << 20) throws(ImportError) {
        source = try FileByteSource(path: path)
        self.maxCardBytes = maxCardBytes
        while let first = try nextLine() {
            if first.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard Self.isCardMarker(first, "BEGIN") else {
                throw .wrongFormat("the file is not a vCard file: its first line is not BEGIN:VCARD")
            }
            pending = first
            break
        }
    }

    /// True when `bytes` start (after blanks) with `BEGIN:VCARD`: for telling a `.vcf` file by its content.
    public static func recognises(_ bytes: some Collection<UInt8>) -> Bool {
        var body = Array(bytes)
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
        body = Array(body.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A })
        let end = body.firstIndex { $0 == 0x0D || $0 == 0x0A } ?? body.endIndex
        return isCardMarker(Array(body[..<end]), "BEGIN")
    }

    public func next() throws(ImportError) -> ImportRecord? {
        // Up to the next BEGIN:VCARD.
        var begin: [UInt8]?
        while let text = try takeLine() {
            if Self.isCardMarker(text, "BEGIN") {
                begin = text
                break
            }
        }
        guard let begin else { return nil }
        let firstLine = line
        var card = begin + [0x0D, 0x0A]
        var depth = 1
        var dropping = false
        var tooLong = false
        while let text = try takeLine() {
            if dropping {
                // A picture's folded or base64 lines: they start with a blank, or hold no property name.
                if text.first == 0x20 || text.first == 0x09 || !text.contains(UInt8(ascii: ":")) { continue }
                dropping = false
            }
            if Self.isCardMarker(text, "BEGIN") { depth += 1 }
            if Self.isCardMarker(text, "END") { depth -= 1 }
            if depth > 0, Self.isBinaryProperty(text) {
                dropping = true
                continue
            }
            if !tooLong {
                card += text
                card += [0x0D, 0x0A]
                tooLong = card.count > maxCardBytes
            }
            if depth == 0 { break }
        }
        if tooLong {
            throw .malformed(
                line: firstLine, reason: "the card is longer than \(maxCardBytes) bytes without its pictures")
        }
        var record = ImportRecord(name: "", email: "", line: firstLine)
        record.card = card
        Self.readDetails(VCardDetails.read(utf8: card), into: &record)
        return record
    }

    /// Every `NOTE` and the `CATEGORIES` of a card, and what a card Prospects wrote carries in its `X-PROSPECTS-`
    /// properties (`VCardWriter`): rating, contacted, reminder, added, last seen, scan count, the first sighting's
    /// source, event and collector, and each note's author and time.
    /// A card of another program keeps its first `NOTE` as its own (as a scanned card's), and its later ones as notes.
    static func readDetails(_ details: VCardDetails, into record: inout ImportRecord) {
        var carried = CarriedLead()
        carried.tags = details.categories
        let ours = details.notes.contains { $0.writtenAt != nil }
        if ours {
            // Every note with its author and time: the card's first NOTE is not taken as a collector's own.
            record.replacesCardNote = true
            for note in details.notes {
                guard let writtenAt = note.writtenAt.flatMap({ Timestamp.parse($0) }) else {
                    record.plainNotes.append(note.text)
                    continue
                }
                carried.notes.append(ProspectNote(writtenAt: writtenAt, author: note.author ?? "", text: note.text))
            }
        } else {
            record.plainNotes = details.notes.dropFirst().map(\.text)
        }
        let x = details.extensions
        if let text = x["X-PROSPECTS-RATING"] {
            if let rating = ProspectRating(rawValue: text.lowercased()) {
                carried.rating = rating
            } else {
                record.ignored.append("X-PROSPECTS-RATING \"\(SafeText.escaped(text, limit: 40))\" is not a rating")
            }
        }
        if let text = x["X-PROSPECTS-CONTACTED"] { record.contacted = ImportColumns.parseContacted(text) }
        record.remindAt = x["X-PROSPECTS-REMIND-AT"].flatMap { Timestamp.parse($0) }
        record.createdAt = x["X-PROSPECTS-ADDED"].flatMap { Timestamp.parse($0) }
        carried.lastSeenAt = x["X-PROSPECTS-LAST-SEEN"].flatMap { Timestamp.parse($0) }
        if let text = x["X-PROSPECTS-SCAN-COUNT"] {
            if let count = Int(text.trimmingASCIISpaces()), count >= 1 {
                carried.scanCount = count
            } else {
                record.ignored.append(
                    "X-PROSPECTS-SCAN-COUNT \"\(SafeText.escaped(text, limit: 40))\" is not a count")
            }
        }
        // The first sighting: where, at which event and by whom the lead was first seen.
        if let source = x["X-PROSPECTS-SOURCE"], !source.isEmpty, let createdAt = record.createdAt {
            carried.history = [
                ScanRecord(
                    source: source, seenAt: createdAt, event: x["X-PROSPECTS-EVENT"],
                    collectedBy: x["X-PROSPECTS-COLLECTED-BY"])
            ]
        }
        if carried != CarriedLead() { record.carried = carried }
    }

    /// `PHOTO`, `LOGO`, `SOUND` or `KEY`, with or without a group and parameters.
    static func isBinaryProperty(_ text: [UInt8]) -> Bool {
        let name = propertyName(text)
        return name == "PHOTO" || name == "LOGO" || name == "SOUND" || name == "KEY"
    }

    /// The property name of a content line, upper-cased, without its group (`item1.EMAIL;TYPE=x:` → `EMAIL`).
    static func propertyName(_ text: [UInt8]) -> String {
        let end = text.firstIndex { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ";") } ?? text.endIndex
        let full = text[..<end]
        let start = full.lastIndex(of: UInt8(ascii: ".")).map { $0 + 1 } ?? full.startIndex
        return String(decoding: full[start...], as: UTF8.self).uppercased().trimmingASCIISpaces()
    }

    /// `BEGIN:VCARD` or `END:VCARD`, any case, blanks around.
    static func isCardMarker(_ text: [UInt8], _ marker: String) -> Bool {
        let line = String(decoding: text, as: UTF8.self).trimmingASCIISpaces().uppercased()
        guard line.hasPrefix(marker + ":") else { return false }
        return String(line.dropFirst(marker.count + 1)).trimmingASCIISpaces() == "VCARD"
    }

    private func takeLine() throws(ImportError) -> [UInt8]? {
        if let pending {
            self.pending = nil
            return pending
        }
        return try nextLine()
    }

    /// The next physical line without its CR/LF, or nil at the end of the file.
    private func nextLine() throws(ImportError) -> [UInt8]? {
        var text: [UInt8] = []
        while true {
            if chunk == nil || position >= chunk!.upperBound {
                if atEnd { return text.isEmpty ? nil : text }
                chunk = try source.nextChunk()
                guard let chunk else {
                    atEnd = true
                    return text.isEmpty ? nil : text
                }
                position = chunk.lowerBound
            }
            let byte = source.buffer[position]
            position += 1
            if byte == 0x0A {
                line += 1
                if text.last == 0x0D { text.removeLast() }
                return text
            }
            text.append(byte)
        }
    }
}
