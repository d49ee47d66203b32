/// One CSV cell as RFC 4180 writes it, made safe to open in a spreadsheet.
public enum CSVField {
    /// `value` guarded against formula injection, then quoted if it must be.
    ///
    /// Spreadsheets run a cell starting with `=`, `+`, `-` or `@` as a formula (and some strip a leading TAB or
    /// CR first), so a QR code could carry `=HYPERLINK(…)` into someone's Excel. Such a cell gets a leading `'`,
    /// which spreadsheets show as text (OWASP's advice). Import takes that `'` off (`followsGuard`), so a cell that
    /// itself starts with `'` and such a byte, or with two `'`, is guarded too: `'=1` is written `''=1`, which
    /// spreadsheets and import both read as `'=1`. A cell holding `"`, `,`, CR or LF is then put in quotes,
    /// with `"` doubled. A phone number (`+34 600 123 456`, `+1 (555) 010-9999`) is left as it is: it holds no
    /// letter, so no function or reference a spreadsheet could run. Without `guardingFormulas` (a file for programs, not spreadsheets: a CRM's import,
    /// Python's `csv`), cells are only quoted, so that `+1 555 0100` stays a phone number there.
    public static func escape(_ value: String, guardingFormulas: Bool = true) -> String {
        var text = value
        if guardingFormulas, let first = value.utf8.first,
            startsFormula(first) && !isPhoneNumber(value[...]) && !isPhoneList(value)
                || first == Byte.apostrophe && value.utf8.dropFirst().first.map(followsGuard) == true
        {
            text = "'" + value
        }
        guard
            text.utf8.contains(where: {
                $0 == Byte.quote || $0 == Byte.comma || $0 == Byte.carriageReturn || $0 == Byte.lineFeed
            })
        else { return text }
        var quoted = "\""
        for character in text.unicodeScalars {
            if character == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(character) }
        }
        return quoted + "\""
    }

    /// True for `+` then digits, with spaces, `(`, `)`, `-`, `.` and `/` between them, at least six digits in all,
    /// ending with a digit: a phone number, not a formula.
    static func isPhoneNumber(_ value: Substring) -> Bool {
        let bytes = value.utf8
        guard bytes.first == Byte.plus, let last = bytes.last, (0x30...0x39).contains(last) else { return false }
        var digits = 0
        for byte in bytes.dropFirst() {
            switch byte {
            case 0x30...0x39: digits += 1
            case 0x20, UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"):
                continue
            default: return false
            }
        }
        return digits >= 6
    }

    /// True for phone numbers (`isPhoneNumber`) separated by ` ::: `, a cell of a lead's other phones: no formula.
    static func isPhoneList(_ value: String) -> Bool {
        let phones = value.split(separator: " ::: ", omittingEmptySubsequences: false)
        return phones.count > 1 && phones.allSatisfy { isPhoneNumber($0) }
    }

    /// True when a cell's leading `'` followed by `next` is our guard, which import takes off: before a formula's
    /// first byte, or before another `'`.
    static func followsGuard(_ next: UInt8) -> Bool {
        startsFormula(next) || next == Byte.apostrophe
    }

    /// True for the first bytes that make a spreadsheet treat a cell as a formula: `=`, `+`, `-`, `@`, TAB, CR.
    static func startsFormula(_ byte: UInt8) -> Bool {
        byte == Byte.equals || byte == Byte.plus || byte == Byte.minus || byte == Byte.at || byte == Byte.tab
            || byte == Byte.carriageReturn
    }
}
