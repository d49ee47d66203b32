/// Splits RFC 4180 CSV bytes into rows of fields, one row at a time, reusing the same storage for every row.
///
/// Accepts CRLF, LF or lone CR line ends, quoted fields spanning lines, `""` inside quotes, a UTF-8 byte order
/// mark at the start, and `;` or TAB in place of `,` when the first line holds no comma (or Excel's `sep=;` line
/// says so). Blank lines are skipped. It is lenient where spreadsheets are (a `"` inside an unquoted field is kept
/// as is) and reports a `problem` where data would be lost or guessed: an unterminated quote, text after a closing
/// quote, or a record over the size limit. Works on bytes; decoding is the caller's business.
final class CSVRowParser {
    /// The current row's fields, concatenated; `range(ofField:)` says where each one is.
    private(set) var bytes: [UInt8] = []
    private(set) var fieldEnds: [Int] = []
    /// The 1-based line the current row starts on.
    private(set) var rowLine = 0
    /// What separates fields: a comma, unless the first line has none and semicolons or tabs instead (a spreadsheet
    /// saved in a locale whose decimal mark is the comma, or a TSV file).
    private(set) var delimiter = Byte.comma
    private var sniffed = false
    /// Why the current row cannot be trusted, if it cannot.
    private(set) var problem: String?

    private let source: FileByteSource
    private let maxRecordBytes: Int
    private var position = 0
    private var limit = 0
    /// The last row ended with CR; an LF right after it belongs to the same line end.
    private var skipLineFeed = false
    private var line = 1

    private enum State { case fieldStart, unquoted, quoted, afterQuote }

    init(source: FileByteSource, maxRecordBytes: Int) {
        self.source = source
        self.maxRecordBytes = maxRecordBytes
        bytes.reserveCapacity(1024)
        fieldEnds.reserveCapacity(32)
    }

    var fieldCount: Int { fieldEnds.count }

    func range(ofField index: Int) -> Range<Int> {
        (index == 0 ? 0 : fieldEnds[index - 1])..<fieldEnds[index]
    }

    /// Reads the next row into `bytes` and `fieldEnds`; false at the end of the file.
    func nextRow() throws(ImportError) -> Bool {
        bytes.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        problem = nil
        rowLine = line
        var state = State.fieldStart
        var rowStarted = false

        while true {
            if position == limit {
                guard try refill() else {
                    // The end of the file ends the last row, with or without a line end.
                    switch state {
                    case .fieldStart:
                        guard rowStarted else { return false }
                    case .quoted:
                        // Said plainly when the quote swallowed lines: they look imported, and are not.
                        problem =
                            line - rowLine < 2
                            ? "a quoted field is not closed before the end of the file"
                            : "a quote opened on this line is never closed: every line after it, to the end of the "
                                + "file, was read into this one field and none was imported; close the quote and "
                                + "import again"
                    case .unquoted, .afterQuote:
                        break
                    }
                    fieldEnds.append(bytes.count)
                    return true
                }
            }
            let buffer = UnsafeBufferPointer(source.buffer)
            let byte = buffer[position]
            if skipLineFeed {
                skipLineFeed = false
                if byte == Byte.lineFeed {
                    position += 1
                    continue
                }
            }

            switch state {
            case .fieldStart:
                if byte == Byte.quote {
                    position += 1
                    state = .quoted
                    rowStarted = true
                } else if byte == delimiter {
                    position += 1
                    fieldEnds.append(bytes.count)
                    rowStarted = true
                } else if byte == Byte.lineFeed || byte == Byte.carriageReturn {
                    position += 1
                    endLine(with: byte)
                    if rowStarted {
                        fieldEnds.append(bytes.count)
                        return true
                    }
                    rowLine = line  // a blank line: skip it
                } else {
                    state = .unquoted
                    rowStarted = true
                }

            case .unquoted:
                // The hot loop: copy the run up to the next delimiter in one append.
                let stop = runLimit()
                let separator = delimiter
                var end = position
                while end < stop {
                    let b = buffer[end]
                    if b == separator || b == Byte.lineFeed || b == Byte.carriageReturn { break }
                    end += 1
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<end]))
                position = end
                if end < stop {
                    let found = buffer[end]
                    position += 1
                    fieldEnds.append(bytes.count)
                    if found == separator {
                        state = .fieldStart
                    } else {
                        endLine(with: found)
                        return true
                    }
                }
                if bytes.count + fieldEnds.count > maxRecordBytes { return try abandonOversizedRow(in: state) }

            case .quoted:
                let stop = runLimit()
                var end = position
                while end < stop && buffer[end] != Byte.quote {
                    if buffer[end] == Byte.lineFeed { line += 1 }
                    end += 1
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position..<end]))
                position = end
                if end < stop {
                    position += 1
                    state = .afterQuote
                }
                if bytes.count + fieldEnds.count > maxRecordBytes { return try abandonOversizedRow(in: state) }

            case .afterQuote:
                if byte == Byte.quote {
                    // `""` inside quotes is one quote.
                    bytes.append(Byte.quote)
                    position += 1
                    state = .quoted
                } else if byte == delimiter {
                    position += 1
                    fieldEnds.append(bytes.count)
                    state = .fieldStart
                } else if byte == Byte.lineFeed || byte == Byte.carriageReturn {
                    position += 1
                    endLine(with: byte)
                    fieldEnds.append(bytes.count)
                    return true
                } else {
                    // `"ab"c`: keep the text like spreadsheets do, but say the row is suspect.
                    if problem == nil { problem = "text follows a closing quote" }
                    state = .unquoted
                }
            }
        }
    }

    /// Where a run of field bytes must stop: the end of the buffer, or one byte past the record limit, so an
    /// oversized record is noticed where it crosses the limit and not a whole buffer later.
    private func runLimit() -> Int {
        let room = maxRecordBytes - bytes.count - fieldEnds.count + 1
        return min(limit, position + max(room, 1))
    }

    /// Counts a line end, already consumed, whose first byte is `byte`.
    private func endLine(with byte: UInt8) {
        line += 1
        if byte == Byte.carriageReturn { skipLineFeed = true }
    }

    /// A record over the limit: drop what was kept and read on to the record's real end, quotes and all, so one huge
    /// record costs bounded memory and nothing inside a quoted field is ever taken for rows of its own.
    private func abandonOversizedRow(in state: State) throws(ImportError) -> Bool {
        bytes.removeAll(keepingCapacity: false)
        fieldEnds.removeAll(keepingCapacity: false)
        var state = state
        var lastByte: UInt8 = 0
        let size = maxRecordBytes % (1 << 20) == 0 ? "\(maxRecordBytes >> 20) MiB" : "\(maxRecordBytes) bytes"
        func span(through last: Int) -> String { last > rowLine ? "lines \(rowLine)–\(last)" : "line \(rowLine)" }
        while true {
            if position == limit {
                guard try refill() else {
                    // A line feed just before the end closes the last line; it starts no other.
                    let last = lastByte == Byte.lineFeed ? line - 1 : line
                    problem =
                        state == .quoted
                        ? "a quote opened on this line is never closed: \(span(through: last)), to the end of the "
                            + "file, were read into one field over \(size) and none was imported; close the quote "
                            + "and import again"
                        : "the record (\(span(through: last))) is longer than \(size); skipped"
                    return true
                }
            }
            let byte = source.buffer[position]
            position += 1
            lastByte = byte
            if skipLineFeed {
                skipLineFeed = false
                if byte == Byte.lineFeed { continue }
            }
            switch state {
            case .quoted:
                if byte == Byte.quote {
                    state = .afterQuote
                } else if byte == Byte.lineFeed {
                    line += 1
                }
            case .fieldStart, .unquoted, .afterQuote:
                if byte == Byte.lineFeed || byte == Byte.carriageReturn {
                    endLine(with: byte)
                    problem = "the record (\(span(through: line - 1))) is longer than \(size); skipped"
                    return true
                }
                if byte == delimiter {
                    state = .fieldStart
                } else if byte == Byte.quote && state != .unquoted {
                    state = .quoted  // a field's opening quote, or the second of `""` inside one
                } else {
                    state = .unquoted
                }
            }
        }
    }

    private func refill() throws(ImportError) -> Bool {
        guard let chunk = try source.nextChunk() else { return false }
        position = chunk.lowerBound
        limit = chunk.upperBound
        if !sniffed {
            sniffed = true
            sniffDelimiter()
        }
        return true
    }

    /// Excel's `sep=;` first line says the delimiter and is no row; otherwise the candidates are counted on the
    /// first line that is not blank, outside quotes, in the first buffer.
    private func sniffDelimiter() {
        let buffer = UnsafeBufferPointer(source.buffer)
        let sep = Array("sep=".utf8)
        if limit - position >= 5, (0..<4).allSatisfy({ buffer[position + $0] | 0x20 == sep[$0] }) {
            var end = position + 5
            if end == limit || buffer[end] == Byte.lineFeed || buffer[end] == Byte.carriageReturn {
                delimiter = buffer[position + 4]
                if end < limit && buffer[end] == Byte.carriageReturn { end += 1 }
                if end < limit && buffer[end] == Byte.lineFeed { end += 1 }
                position = end
                line += 1
                return
            }
        }
        var counts: [UInt8: Int] = [:]
        var quoted = false
        var start = position
        while start < limit && (buffer[start] == Byte.lineFeed || buffer[start] == Byte.carriageReturn) { start += 1 }
        for byte in UnsafeBufferPointer(rebasing: buffer[start..<limit]) {
            if byte == Byte.quote { quoted.toggle() }
            if quoted { continue }
            if byte == Byte.lineFeed || byte == Byte.carriageReturn { break }
            if byte == Byte.comma || byte == Byte.semicolon || byte == Byte.tab { counts[byte, default: 0] += 1 }
        }
        guard counts[Byte.comma] == nil else { return }
        if let (byte, _) = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) {
            delimiter = byte
        }
    }
}

/// ASCII bytes the CSV and JSON Lines readers look for.
enum Byte {
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let tab: UInt8 = 0x09
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let apostrophe: UInt8 = 0x27
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let semicolon: UInt8 = 0x3B
    static let minus: UInt8 = 0x2D
    static let equals: UInt8 = 0x3D
    static let at: UInt8 = 0x40
}
