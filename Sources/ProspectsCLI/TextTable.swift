/// An aligned plain-text table, written as its rows come; cells must already be escaped (`SafeText`).
///
/// Column widths are those of the header and the first `sampleSize` rows, so that a list of millions starts at
/// once and holds no more than those rows: a later, wider cell pushes the rest of its line to the right instead
/// (nothing is cut). A column with a limit cuts every cell wider than it with `…`, so that one very long name does
/// not widen the table for everyone; what it cut is in `show` and in `--json`. With a `fit` width (a terminal's),
/// the widest columns are narrowed until a line fits in it, and their cells cut with `…` too.
struct TextTable {
    struct Column {
        let title: String
        /// The most terminal columns a cell may take, `…` included.
        var limit: Int?
        /// Kept whole when the table is narrowed to fit (an id).
        var keepsWidth: Bool

        init(_ title: String, limit: Int? = nil, keepsWidth: Bool = false) {
            self.title = title
            self.limit = limit
            self.keepsWidth = keepsWidth
        }
    }

    private let columns: [Column]
    private let out: OutputStream
    private let sampleSize: Int
    private let fit: Int?
    private var sample: [[String]] = []
    private var widths: [Int]?
    /// Per column, the width its cells are cut to once the table was narrowed to fit.
    private var cutWidths: [Int?] = []

    init(_ columns: [Column], out: OutputStream, sampleSize: Int = 1_000, fit: Int? = nil) {
        self.columns = columns
        self.out = out
        self.sampleSize = sampleSize
        self.fit = fit
    }

    mutating func add(_ row: [String]) {
        let row = zip(row, columns).map { cell, column in column.limit.map { Self.cut(cell, to: $0) } ?? cell }
        if let widths {
            write(row, widths)
        } else {
            sample.append(row)
            if sample.count >= sampleSize { flushSample() }
        }
    }

    /// Writes what is still held back: the header and the sample, when fewer rows than `sampleSize` came.
    mutating func finish() {
        if widths == nil { flushSample() }
    }

    private mutating func flushSample() {
        var widths = columns.map { Self.displayWidth($0.title) }
        for row in sample {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], Self.displayWidth(cell)) }
        }
        let natural = widths
        if let fit { widths = Self.narrowed(widths, columns, to: fit) }
        cutWidths = zip(widths, natural).map { $0 < $1 ? $0 : nil }
        write(columns.map(\.title), widths)
        for row in sample { write(row, widths) }
        sample = []
        self.widths = widths
    }

    /// `widths` narrowed, widest column first, until a line of them fits in `fit` columns; a column keeps at least
    /// its title's width, or 3.
    static func narrowed(_ widths: [Int], _ columns: [Column], to fit: Int) -> [Int] {
        var widths = widths
        let gaps = 2 * max(0, widths.count - 1)
        let minimum = columns.map { $0.keepsWidth ? Int.max : max(3, displayWidth($0.title)) }
        while widths.reduce(gaps, +) > fit {
            let candidates = widths.indices.filter { !columns[$0].keepsWidth && widths[$0] > minimum[$0] }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
        }
        return widths
    }

    private func write(_ row: [String], _ widths: [Int]) {
        var line = ""
        let row = row.enumerated().map { index, cell in
            index < cutWidths.count ? cutWidths[index].map { Self.cut(cell, to: $0) } ?? cell : cell
        }
        for (index, cell) in row.enumerated() {
            line += cell
            if index < row.count - 1 {
                line += String(repeating: " ", count: max(widths[index] - Self.displayWidth(cell), 0) + 2)
            }
        }
        out.line(line)
    }

    /// `text` cut to at most `limit` terminal columns, ending in `…` when it was cut. An escape (`\\`, `\n`,
    /// `\u{1B}`…) is kept whole or left out whole: half of one would read as something the text does not hold.
    static func cut(_ text: String, to limit: Int) -> String {
        guard displayWidth(text) > limit else { return text }
        let scalars = Array(text.unicodeScalars)
        var kept = String.UnicodeScalarView()
        var width = 0
        var index = 0
        while index < scalars.count {
            let end = escapeEnd(in: scalars, at: index) ?? index + 1
            let next = scalars[index..<end].reduce(0) { $0 + Self.width(of: $1) }
            if width + next > limit - 1 { break }
            kept.append(contentsOf: scalars[index..<end])
            width += next
            index = end
        }
        return String(kept) + "…"
    }

    /// The end of the `SafeText` escape that starts at `index`, or nil when none does. In escaped text every
    /// backslash starts one: a backslash of the text itself is `\\`.
    private static func escapeEnd(in scalars: [Unicode.Scalar], at index: Int) -> Int? {
        guard scalars[index] == "\\", index + 1 < scalars.count else { return nil }
        if scalars[index + 1] == "u", index + 2 < scalars.count, scalars[index + 2] == "{",
            let close = scalars[(index + 3)...].firstIndex(of: "}")
        {
            return close + 1
        }
        return index + 2
    }

    /// Columns a terminal uses for `text`: East Asian wide characters take two, combining marks none.
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    /// Columns a terminal uses for one scalar: 0, 1 or 2.
    private static func width(of scalar: Unicode.Scalar) -> Int {
        // Below U+0300 only the soft hyphen (a format character) takes no column; the property lookup for every
        // other scalar was half of what a long `list` cost.
        if scalar.value < 0x300 { return scalar.value == 0xAD ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return isWide(scalar.value) ? 2 : 1
        }
    }

    private static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v)
    }
}
