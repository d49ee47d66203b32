/// Reads `mailto:` links (RFC 6068): `mailto:paul@example.com?subject=Hello`.
///
/// The scheme is matched without regard to case. The first address of a comma-separated list is used,
/// or, when the path is empty, the first of a `?to=` query field; other query fields are ignored.
/// Percent-escapes are decoded as UTF-8 (`%40` is `@`); a `%` not followed by two hex digits stays as
/// written. The link carries no name: see `NamelessAddress`, unless the decoded address has the
/// `Name <address>` form, whose name is then used.
enum MailtoParser {
    /// The scheme and its colon, compared without regard to ASCII case.
    static let prefix = "mailto:"

    /// Parses `rest`, the payload after `mailto:`.
    static func parse(_ rest: some Collection<Unicode.Scalar>) -> Result<Prospect, ScanError> {
        var rest = Array(rest)
        // `mailto://paul@example.com` is a common generator mistake; `/` is legal in a local part, so
        // without this the address would silently become `//paul@example.com`.
        if rest.starts(with: ["/", "/"]) { rest.removeFirst(2) }

        let question = rest.firstIndex(of: "?") ?? rest.endIndex
        var raw = firstAddress(rest[..<question])
        if raw == nil, question < rest.endIndex {
            raw = toField(in: rest[(question + 1)...]).flatMap(firstAddress)
        }
        guard let raw else { return .failure(.missingEmail) }
        guard let decoded = percentDecoded(raw) else { return .failure(.invalidText) }

        if let named = NameAddressParser.parse(Array(decoded.unicodeScalars)) {
            return named
        }
        return NamelessAddress.prospect(email: decoded)
    }

    /// The first non-blank entry of a comma-separated address list (split before decoding, so `%2C` is
    /// a comma inside an address, not a separator).
    private static func firstAddress(_ list: some Collection<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar>? {
        Array(list).split(separator: ",").first { !ScalarText.trimmedScalars($0).isEmpty }
    }

    /// The value of the first `to=` field of a query string.
    private static func toField(in query: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar>? {
        for field in query.split(separator: "&") where ScalarText.hasPrefix(field, ignoringCase: "to=") {
            return field.dropFirst(3)
        }
        return nil
    }

    /// `raw` with `%XX` escapes decoded; `nil` when the decoded bytes are not UTF-8.
    private static func percentDecoded(_ raw: some Collection<Unicode.Scalar>) -> String? {
        var bytes: [UInt8] = []
        let scalars = Array(raw)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "%", index + 2 < scalars.count,
                let high = QuotedPrintable.hexDigit(scalars[index + 1].value),
                let low = QuotedPrintable.hexDigit(scalars[index + 2].value)
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(contentsOf: String(scalars[index]).utf8)
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
