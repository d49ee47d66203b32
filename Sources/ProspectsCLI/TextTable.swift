/// An aligned plain-text table; cells must already be escaped (`SafeText`).
struct TextTable {
    let columns: [String]
    private var rows: [[String]] = []

    init(columns: [String]) { self.columns = columns }

    mutating func add(_ row: [String]) { rows.append(row) }

    func render(to out: OutputStream) {
        var widths = columns.map(TextTable.displayWidth)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], TextTable.displayWidth(cell)) }
        }
        for row in [columns] + rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 {
                    line += String(repeating: " ", count: widths[index] - TextTable.displayWidth(cell) + 2)
                }
            }
            out.line(line)
        }
    }

    /// Columns a terminal uses for `text`: East Asian wide characters take two, combining marks none.
    static func displayWidth(_ text: String) -> Int {
        var width = 0
        for scalar in text.unicodeScalars {
            // Below U+0300 only the soft hyphen (a format character) takes no column; the property lookup for every
            // other scalar was half of what a long `list` cost.
            if scalar.value < 0x300 {
                width += scalar.value == 0xAD ? 0 : 1
                continue
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: break
            }
            width += isWide(scalar.value) ? 2 : 1
        }
        return width
    }

    private static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v)
    }
}
