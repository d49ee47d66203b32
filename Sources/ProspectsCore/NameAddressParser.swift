/// Reads the one-line `Name <address>` form of mail headers, also with a quoted name
/// (`"Hudson, Paul" <paul@example.com>`).
///
/// The line must end in `<address>` and hold no other angle brackets outside the quotes; anything else
/// is not this form. `<paul@example.com>` alone has an empty name slot and is refused with `.emptyName`.
enum NameAddressParser {
    /// The prospect, or its problem, when `line` has the `Name <address>` shape; `nil` when it does not.
    static func parse(_ line: [Unicode.Scalar]) -> Result<Prospect, ScanError>? {
        let line = ScalarText.trimmedScalars(line)
        guard line.last == ">", let open = line.lastIndex(of: "<") else { return nil }
        let address = line[(open + 1)..<(line.count - 1)]
        guard !address.contains("<"), !address.contains(">") else { return nil }

        let before = ScalarText.trimmedScalars(line[..<open])
        let name: String
        if before.first == "\"" {
            guard let quoted = unquote(before) else { return nil }
            name = quoted
        } else {
            guard !before.contains("<"), !before.contains(">"), !before.contains("\"") else { return nil }
            name = ScalarText.string(before)
        }
        return ProspectBuilder.build(name: name, email: ScalarText.string(address))
    }

    /// The text of a `"…"` quoted string with `\"` and `\\` unescaped; `nil` unless the quote closes at
    /// the very end.
    private static func unquote(_ scalars: [Unicode.Scalar]) -> String? {
        var out = String.UnicodeScalarView()
        var escaping = false
        for (index, scalar) in scalars.enumerated().dropFirst() {
            if escaping {
                escaping = false
                out.append(scalar)
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == "\"" {
                return index == scalars.count - 1 ? String(out) : nil
            } else {
                out.append(scalar)
            }
        }
        return nil
    }
}
