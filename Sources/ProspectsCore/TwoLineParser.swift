/// Reads the Hot Prospects contract, `Name` then `email` on two lines, and the payloads that have no prefix.
///
/// Lines end at LF, CRLF or a lone CR, and each line is trimmed of blanks. Trailing blank lines are
/// dropped (a code generator's final line break is harmless), but leading and inner ones count: the
/// payload needs exactly two lines, so `Name\n\nemail` has three and `\nemail` has an empty name line.
///
/// Other line counts: one line of the form `Name <email>` is read as such, and one line holding no blank and an
/// `@` as an address alone, named as `mailto:` names it (`NamelessAddress`). Otherwise text with an `@`
/// somewhere looks like a contact in the wrong shape and gives `.wrongLineCount(n)`; text without one
/// cannot be a contact at all and gives `.unsupportedPayload` quoting its start. An empty payload is
/// `.wrongLineCount(0)`.
enum TwoLineParser {
    /// Parses `scalars`, a payload without its BOM.
    static func parse(_ scalars: [Unicode.Scalar]) -> Result<ParsedPayload, ScanError> {
        var lines = ScalarText.lines(scalars).map(ScalarText.trimmedScalars)
        while lines.last?.isEmpty == true { lines.removeLast() }

        switch lines.count {
        case 2:
            let name = ScalarText.string(lines[0])
            let email = ScalarText.string(lines[1])
            return ProspectBuilder.build(name: name, email: email).map { ParsedPayload(prospect: $0, format: .lines) }
        case 1:
            if let result = NameAddressParser.parse(lines[0]) {
                return result.map { ParsedPayload(prospect: $0, format: .nameAddress) }
            }
            // What a plain-text QR generator makes of an address; a problem with it is said as the address's own.
            if lines[0].contains("@"), !lines[0].contains(where: \.properties.isWhitespace) {
                return NamelessAddress.prospect(email: ScalarText.string(lines[0])).map {
                    ParsedPayload(prospect: $0, format: .address)
                }
            }
        case 0:
            return .failure(.wrongLineCount(0))
        default:
            break
        }
        if scalars.contains("@") {
            return .failure(.wrongLineCount(lines.count))
        }
        return .failure(.unsupportedPayload(summary: PayloadSummary.text(ScalarText.trimmedScalars(scalars))))
    }
}
