/// Reads vCard 2.1, 3.0 and 4.0 contact codes (`BEGIN:VCARD` … `END:VCARD`).
///
/// Works on the UTF-8 bytes, not on a decoded string: lines are unfolded first (a CRLF or LF followed by
/// one space or tab is removed), and a generator that folds at a byte count may cut a multi-byte letter in
/// two — only once the halves are joined is the text valid UTF-8.
///
/// The name is `FN`, or else `N` (`Last;First;Middle;Prefix;Suffix` shown as `First Last`); `N` is also kept in
/// its parts. Then the first non-blank `EMAIL` (later ones are other addresses), `TEL`, the first component of
/// `ORG`, `TITLE` and `NOTE`. Property names are case-insensitive, groups
/// (`item1.EMAIL`) and parameters (`EMAIL;TYPE=work:`) are accepted, and `PREF` is not consulted: the first
/// address written wins, as it does in MECARD. Escapes `\n \, \; \\` are undone. vCard 2.1
/// `QUOTED-PRINTABLE` values (with soft line breaks) and `CHARSET=UTF-8` or `ISO-8859-1` are supported,
/// since phones still export them; other charsets are refused (see `VCardContentLine.text()`).
///
/// Only the first card is read: properties of a nested card (a 2.1 `AGENT`) and anything after the first
/// `END:VCARD` are ignored. A missing `END:VCARD` is tolerated.
enum VCardParser {
    /// The first line, compared without regard to ASCII case.
    static let prefix = "BEGIN:VCARD"

    /// True when `bytes` (after leading white space) start with a `BEGIN:VCARD` line.
    static func recognises(_ bytes: some Collection<UInt8>) -> Bool {
        let body = bytes.drop { isASCIIBlankOrBreak($0) }
        let head = Array(body.prefix(prefix.utf8.count + 1))
        guard ScalarText.hasPrefix(head.map { Unicode.Scalar($0) }, ignoringCase: prefix) else { return false }
        return head.count == prefix.utf8.count || isASCIIBlankOrBreak(head.last!)
    }

    /// Parses the UTF-8 `bytes` of a payload that `recognises` accepted.
    static func parse(utf8 bytes: some Collection<UInt8>) -> Result<Prospect, ScanError> {
        var fields = Fields()
        for line in firstCardLines(utf8: bytes) {
            if case .failure(let error) = fields.record(line) { return .failure(error) }
        }
        return ProspectBuilder.build(
            name: fields.formattedName.map { EscapedText.unescape($0.unicodeScalars, newlines: true) }
                ?? fields.structuredName.map(displayName),
            email: fields.email.map { EscapedText.unescape($0.unicodeScalars, newlines: true) },
            phone: fields.phone.map(phoneText),
            organization: fields.organization.map(firstComponent),
            title: fields.title.map { EscapedText.unescape($0.unicodeScalars, newlines: true) },
            nameParts: fields.structuredName.map(nameParts),
            otherEmails: fields.otherEmails.map { EscapedText.unescape($0.unicodeScalars, newlines: true) },
            note: fields.note.map { EscapedText.unescape($0.unicodeScalars, newlines: true) },
            otherPhones: fields.otherPhones.map(phoneText)
        )
    }

    /// The content lines of the first card in `bytes`, between its `BEGIN:VCARD` and `END:VCARD`, without those of a
    /// card nested in it: folded lines joined, and a quoted-printable value continued after each soft line break.
    static func firstCardLines(utf8 bytes: some Collection<UInt8>) -> [VCardContentLine] {
        let lines = physicalLines(unfold(Array(bytes)))
        var card: [VCardContentLine] = []
        var depth = 0
        var index = 0
        while index < lines.count {
            var raw = lines[index]
            index += 1
            guard var line = VCardContentLine(raw) else { continue }
            // A quoted-printable value continues on the next line after a soft break: a final `=`.
            while line.isQuotedPrintable, raw.last == UInt8(ascii: "="), index < lines.count {
                raw.removeLast()
                raw += lines[index]
                index += 1
                line = VCardContentLine(raw) ?? line
            }
            let isCardMarker =
                ScalarText.asciiUppercased(ScalarText.trimmed(String(decoding: line.value, as: UTF8.self)))
                == "VCARD"
            if line.name == "BEGIN" && isCardMarker {
                depth += 1
            } else if line.name == "END" && isCardMarker {
                depth -= 1
                if depth <= 0 { break }
            } else if depth == 1 {
                card.append(line)
            }
        }
        return card
    }

    /// The first non-blank value of each property a prospect uses, decoded but still escaped.
    private struct Fields {
        var formattedName: String?
        var structuredName: String?
        var email: String?
        var phone: String?
        var organization: String?
        var title: String?
        var note: String?
        /// The non-blank `EMAIL` values after the first; one that cannot be decoded is left out.
        var otherEmails: [String] = []
        /// The non-blank `TEL` values after the first, likewise.
        var otherPhones: [String] = []

        /// Keeps `line`'s value if it is a wanted property not seen yet. Decoding errors of a property that
        /// would be used are reported; a blank value is skipped so that a later one can win.
        mutating func record(_ line: VCardContentLine) -> Result<Void, ScanError> {
            let slot: WritableKeyPath<Fields, String?>
            switch line.name {
            case "FN": slot = \.formattedName
            case "N": slot = \.structuredName
            case "EMAIL": slot = \.email
            case "TEL": slot = \.phone
            case "ORG": slot = \.organization
            case "TITLE": slot = \.title
            case "NOTE": slot = \.note
            default: return .success(())
            }
            if line.name == "EMAIL", email != nil {
                if case .success(let text) = line.text(), !ScalarText.trimmed(text).isEmpty { otherEmails.append(text) }
                return .success(())
            }
            if line.name == "TEL", phone != nil {
                if case .success(let text) = line.text(), !ScalarText.trimmed(text).isEmpty { otherPhones.append(text) }
                return .success(())
            }
            guard self[keyPath: slot] == nil else { return .success(()) }
            let decoded = line.text().map { text in
                if !ScalarText.trimmed(text).isEmpty { self[keyPath: slot] = text }
            }
            // A title or note that cannot be decoded is left out: cards were read without them before.
            if case .failure = decoded, line.name == "TITLE" || line.name == "NOTE" { return .success(()) }
            return decoded
        }
    }

    /// `Hudson;Paul;;Mr;` → `Paul Hudson`. A component may itself be a comma list (`Paul,John`), whose
    /// values are joined with spaces; middle names, prefixes and suffixes are left out.
    private static func displayName(_ raw: String) -> String {
        let components = EscapedText.split(raw.unicodeScalars, on: ";").map { component in
            EscapedText.split(component, on: ",")
                .map { ScalarText.trimmed(EscapedText.unescape($0, newlines: true)) }
                .filter { !$0.isEmpty }
                .joined(separator: " ")
        }
        let family = components.first ?? ""
        let given = components.count > 1 ? components[1] : ""
        return [given, family].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `Appleseed;Johnny;Q.;Dr.;Jr.` → its five parts, unescaped; a part that is a comma list (`Paul,John`) has its
    /// values joined with spaces, as the display name does.
    private static func nameParts(_ raw: String) -> [String] {
        EscapedText.split(raw.unicodeScalars, on: ";").prefix(5).map { component in
            EscapedText.split(component, on: ",")
                .map { ScalarText.trimmed(EscapedText.unescape($0, newlines: true)) }
                .filter { !$0.isEmpty }
                .joined(separator: " ")
        }
    }

    /// The organisation name: the first `ORG` component (the rest are units and departments).
    private static func firstComponent(_ raw: String) -> String {
        EscapedText.unescape(EscapedText.split(raw.unicodeScalars, on: ";")[0], newlines: true)
    }

    /// The number, without the `tel:` of a vCard 4.0 `TEL;VALUE=uri:tel:+1-555-0100`.
    private static func phoneText(_ raw: String) -> String {
        let text = ScalarText.trimmed(EscapedText.unescape(raw.unicodeScalars, newlines: true))
        return ScalarText.hasPrefix(text.unicodeScalars, ignoringCase: "tel:") ? String(text.dropFirst(4)) : text
    }

    /// `bytes` with every fold (CRLF or LF, then one space or tab) removed (RFC 6350 §3.2, RFC 2425 §5.8.1).
    static func unfold(_ bytes: [UInt8]) -> [UInt8] {
        let (cr, lf, space, tab) = (UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: " "), UInt8(ascii: "\t"))
        func isFoldBlank(_ index: Int) -> Bool { index < bytes.count && (bytes[index] == space || bytes[index] == tab) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == cr, index + 1 < bytes.count, bytes[index + 1] == lf, isFoldBlank(index + 2) {
                index += 3
            } else if bytes[index] == lf, isFoldBlank(index + 1) {
                index += 2
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    /// The lines of `bytes`, split on CRLF, LF or a lone CR.
    static func physicalLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var afterCR = false
        for byte in bytes {
            if byte == UInt8(ascii: "\n") && afterCR {
                afterCR = false
                continue
            }
            afterCR = byte == UInt8(ascii: "\r")
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lines.append(current)
                current = []
            } else {
                current.append(byte)
            }
        }
        lines.append(current)
        return lines
    }

    private static func isASCIIBlankOrBreak(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\n")
    }
}
