/// Scalar-level text helpers the payload parsers share.
///
/// The parsers read payloads as Unicode scalars, never as `Character`s: Swift joins `\r\n` into one
/// `Character`, and a combining mark glues itself onto the `;`, `:` or `<` before it, so a split on
/// `Character`s would find other fields than every other reader of the same code.
enum ScalarText {
    /// A string made of `scalars`, without any normalisation.
    static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// Space-like scalars that may surround a field: tab and the space separators (space, NBSP, …).
    ///
    /// Deliberately narrower than Foundation's `whitespacesAndNewlines`, which also strips U+200B ZERO WIDTH
    /// SPACE, U+0085 NEXT LINE and vertical tabs: those must reach the unsafe-character check instead of
    /// vanishing quietly from one end of a field.
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// CR or LF, the two scalars that make up the line breaks every supported format uses.
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\r"
    }

    /// `text` without blanks and line breaks at either end.
    static func trimmed(_ text: some StringProtocol) -> String {
        string(trimmedScalars(Array(text.unicodeScalars)))
    }

    /// `scalars` without blanks and line breaks at either end.
    static func trimmedScalars(_ scalars: some BidirectionalCollection<Unicode.Scalar>) -> [Unicode.Scalar] {
        let isSpace = { (s: Unicode.Scalar) in isBlank(s) || isLineBreak(s) }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return Array(scalars[first...last])
    }

    /// The lines of `scalars`, split on CRLF, LF or a lone CR; the break itself is not part of any line.
    static func lines(_ scalars: some Collection<Unicode.Scalar>) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var afterCR = false
        for scalar in scalars {
            if scalar == "\n" && afterCR {
                afterCR = false  // the LF of a CRLF: the line already ended at the CR
                continue
            }
            afterCR = scalar == "\r"
            if isLineBreak(scalar) {
                lines.append(current)
                current = []
            } else {
                current.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }

    /// True when `scalars` starts with the ASCII `prefix`, compared without regard to ASCII case.
    static func hasPrefix(_ scalars: some Collection<Unicode.Scalar>, ignoringCase prefix: String) -> Bool {
        var iterator = scalars.makeIterator()
        for expected in prefix.unicodeScalars {
            guard let scalar = iterator.next(), asciiUppercased(scalar) == asciiUppercased(expected) else {
                return false
            }
        }
        return true
    }

    /// `scalar` with ASCII letters made upper case; every other scalar unchanged.
    ///
    /// Keys and schemes are ASCII; a full Unicode case mapping would let `ſ` (long s) match `S`.
    static func asciiUppercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("a"..."z").contains(scalar) ? Unicode.Scalar(scalar.value - 32)! : scalar
    }

    /// `scalar` with ASCII letters made lower case; every other scalar unchanged.
    static func asciiLowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }

    /// `text` with ASCII letters made upper case, for comparing keys and parameter names.
    static func asciiUppercased(_ text: some StringProtocol) -> String {
        string(text.unicodeScalars.map { asciiUppercased($0) })
    }
}
