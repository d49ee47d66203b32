import Foundation

/// One unfolded vCard content line, `[group.]NAME[;param…]:value`, with its value still encoded.
///
/// The value stays bytes until `text()` is asked for, so only the properties a prospect uses are decoded:
/// a `PHOTO` in an odd encoding or charset does not sink the card.
struct VCardContentLine {
    /// The property name, upper-cased (ASCII), without its group (`item1.EMAIL` → `EMAIL`).
    var name: String
    /// Parameters in the order written, names upper-cased. A vCard 2.1 bare parameter (`EMAIL;INTERNET:`)
    /// is filed under `ENCODING` when it names an encoding and under `TYPE` otherwise.
    var parameters: [(name: String, value: String)]
    /// The raw value bytes after the first colon that is not inside a quoted parameter value.
    var value: [UInt8]

    /// Splits `line`; `nil` when it has no colon, which no content line lacks.
    init?(_ line: some Collection<UInt8>) {
        let line = Array(line)
        var inQuotes = false
        var colon: Int?
        var separators: [Int] = []
        for (index, byte) in line.enumerated() {
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if !inQuotes && byte == UInt8(ascii: ";") {
                separators.append(index)
            } else if !inQuotes && byte == UInt8(ascii: ":") {
                colon = index
                break
            }
        }
        guard let colon else { return nil }

        let bounds = [-1] + separators + [colon]
        let pieces = zip(bounds, bounds.dropFirst()).map { String(decoding: line[($0 + 1)..<$1], as: UTF8.self) }
        let qualified = ScalarText.asciiUppercased(ScalarText.trimmed(pieces[0]))
        name = qualified.split(separator: ".").last.map(String.init) ?? qualified
        parameters = pieces.dropFirst().map(Self.parameter)
        value = Array(line[(colon + 1)...])
    }

    /// The upper-cased value of the first parameter called `name`.
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }.map { ScalarText.asciiUppercased($0.value) }
    }

    /// The value of the first parameter called `name`, as written (its quotes removed).
    func rawParameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// True when the value is quoted-printable, whose lines may end in a soft break (`=`).
    var isQuotedPrintable: Bool { parameter("ENCODING") == "QUOTED-PRINTABLE" }

    /// The value decoded from its transfer encoding and charset, still vCard-escaped (`\,` `\;` `\n`).
    ///
    /// Quoted-printable and base64 are decoded; the charset may be UTF-8 (the default), US-ASCII or
    /// ISO-8859-1. Other charsets (Shift_JIS, windows-1252…) are refused with `.unsupportedPayload` rather
    /// than guessed, and bytes that are not valid in the charset give `.invalidText`.
    func text() -> Result<String, ScanError> {
        var bytes = value
        switch parameter("ENCODING") {
        case "QUOTED-PRINTABLE":
            bytes = QuotedPrintable.decode(bytes)
        case "B", "BASE64":
            let encoded = String(decoding: bytes, as: UTF8.self)
            guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else {
                return .failure(.invalidText)
            }
            bytes = Array(data)
        default:
            break
        }
        switch parameter("CHARSET") {
        case nil, "UTF-8", "UTF8", "US-ASCII", "ASCII":
            guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.invalidText) }
            return .success(text)
        case "ISO-8859-1", "ISO8859-1", "ISO_8859-1", "LATIN1", "LATIN-1":
            // ISO-8859-1 maps each byte to the code point of the same number.
            return .success(ScalarText.string(bytes.map { Unicode.Scalar($0) }))
        case let other?:
            let summary = "a vCard written in the \"\(SafeText.escaped(other, limit: 40))\" character set"
            return .failure(.unsupportedPayload(summary: summary))
        }
    }

    private static func parameter(_ text: String) -> (name: String, value: String) {
        let scalars = Array(text.unicodeScalars)
        guard let equals = scalars.firstIndex(of: "=") else {
            let bare = ScalarText.trimmed(text)
            let encodings: Set<String> = ["QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT"]
            return (encodings.contains(ScalarText.asciiUppercased(bare)) ? "ENCODING" : "TYPE", bare)
        }
        let name = ScalarText.asciiUppercased(ScalarText.string(ScalarText.trimmedScalars(scalars[..<equals])))
        var value = ScalarText.string(ScalarText.trimmedScalars(scalars[(equals + 1)...]))
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        return (name, value)
    }
}
