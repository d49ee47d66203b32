/// Backslash-escaped field text, as MECARD, MATMSG and vCard write it.
///
/// Splitting must happen on the raw text, before unescaping: only an unescaped `;` ends a field and only
/// an unescaped `,` separates a family name from a given name, while `\;` and `\,` are plain text.
enum EscapedText {
    /// The pieces of `raw` between unescaped `separator`s, still escaped.
    static func split(_ raw: some Sequence<Unicode.Scalar>, on separator: Unicode.Scalar) -> [[Unicode.Scalar]] {
        var pieces: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var escaping = false
        for scalar in raw {
            if escaping {
                escaping = false
                current.append(scalar)
            } else if scalar == "\\" {
                escaping = true
                current.append(scalar)
            } else if scalar == separator {
                pieces.append(current)
                current = []
            } else {
                current.append(scalar)
            }
        }
        pieces.append(current)
        return pieces
    }

    /// The position of the first unescaped `target` in `raw`, if any.
    static func firstUnescaped(_ target: Unicode.Scalar, in raw: [Unicode.Scalar]) -> Int? {
        var escaping = false
        for (index, scalar) in raw.enumerated() {
            if escaping {
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == target {
                return index
            }
        }
        return nil
    }

    /// `raw` with `\\`, `\;`, `\:` and `\,` made plain, and `\n` / `\N` made a line feed when `newlines`
    /// (vCard writes line breaks that way; MECARD has no such escape). Any other backslash is kept as is.
    static func unescape(_ raw: some Sequence<Unicode.Scalar>, newlines: Bool) -> String {
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in raw {
            if escaping {
                escaping = false
                switch scalar {
                case "\\", ";", ":", ",": out.append(scalar)
                case "n" where newlines, "N" where newlines: out.append("\n")
                default: out.append(contentsOf: ["\\", scalar])
                }
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.append(scalar)
            }
        }
        if escaping { out.append("\\") }  // a lone backslash at the very end stays
        return String(out)
    }
}
