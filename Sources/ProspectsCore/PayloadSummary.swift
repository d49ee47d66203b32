/// Short descriptions of codes that are not contacts, for `ScanError.unsupportedPayload(summary:)`.
///
/// A summary names the kind of code and quotes only what is harmless to print and log: a URL's scheme and
/// host but not its path or query (which may carry tokens), nothing of a Wi-Fi code (it holds the
/// password) or an OTP setup code (it holds the secret). Quoted text is escaped (see `SafeText`).
enum PayloadSummary {
    /// How many scalars of unrecognised text a summary quotes.
    static let textLimit = 24

    private static let kinds: [(prefix: String, summary: String)] = [
        ("WIFI:", "a Wi-Fi network code"),
        ("otpauth:", "a one-time password setup code"),
        ("tel:", "a phone number"),
        ("sms:", "a text message"), ("smsto:", "a text message"), ("mms:", "a text message"),
        ("mmsto:", "a text message"),
        ("geo:", "a map location"),
        ("BEGIN:VEVENT", "a calendar event"), ("BEGIN:VCALENDAR", "a calendar event"),
        ("MEBKM:", "a bookmark"),
        ("bitcoin:", "a payment request"), ("ethereum:", "a payment request"), ("lightning:", "a payment request"),
    ]

    /// A summary when `scalars` (trimmed at the start) is a known kind of non-contact code, else `nil`.
    static func recognise(_ scalars: [Unicode.Scalar]) -> String? {
        if let kind = kinds.first(where: { ScalarText.hasPrefix(scalars, ignoringCase: $0.prefix) }) {
            return kind.summary
        }
        return link(scalars)
    }

    /// `text "hello wor…"`: the start of text that is no known kind of code.
    static func text(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        "text \"\(SafeText.escaped(ScalarText.string(scalars), limit: textLimit))\""
    }

    /// `a URL (https://example.com/…)` or `a link (ftp://example.com)` for `scheme://authority…` text.
    private static func link(_ scalars: [Unicode.Scalar]) -> String? {
        guard let colon = scalars.prefix(33).firstIndex(of: ":"), isScheme(scalars[..<colon]),
            scalars[colon...].starts(with: [":", "/", "/"])
        else { return nil }
        let scheme = ScalarText.string(scalars[..<colon]).lowercased()
        let rest = scalars[(colon + 3)...]
        let authorityEnd =
            rest.firstIndex { "/?#".unicodeScalars.contains($0) || ScalarText.isLineBreak($0) } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        // Drop `user:password@` from the authority: it is a secret, and not what identifies the link.
        let host = authority.lastIndex(of: "@").map { authority[($0 + 1)...] } ?? authority
        let more = authorityEnd < rest.endIndex ? "/…" : ""
        let shown = "\(scheme)://\(SafeText.escaped(ScalarText.string(host), limit: 60))\(more)"
        return scheme == "http" || scheme == "https" ? "a URL (\(shown))" : "a link (\(shown))"
    }

    /// An RFC 3986 scheme: an ASCII letter, then ASCII letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        let letters: ClosedRange<Unicode.Scalar> = "a"..."z"
        guard let first = scalars.first, letters.contains(ScalarText.asciiLowercased(first)) else { return false }
        return scalars.allSatisfy { scalar in
            letters.contains(ScalarText.asciiLowercased(scalar)) || ("0"..."9").contains(scalar)
                || "+-.".unicodeScalars.contains(scalar)
        }
    }
}
