/// What a vCard says beyond the fields a prospect is built from (`VCardParser`): every `NOTE` (with the author and
/// time Prospects writes as `X-PROSPECTS-AUTHOR` and `X-PROSPECTS-WRITTEN` parameters), the `CATEGORIES`, and the
/// `X-` properties, read from the same unfolded lines of the first card. Values are unescaped; one that cannot be
/// decoded is left out.
public struct VCardDetails: Sendable, Hashable {
    public struct Note: Sendable, Hashable {
        public var text: String
        /// The note's author and time as Prospects wrote them (time in the basic ISO 8601 form of `REV`).
        public var author: String?
        public var writtenAt: String?
    }

    public var notes: [Note] = []
    public var categories: [String] = []
    /// Each `X-` property's first value, by its upper-cased name.
    public var extensions: [String: String] = [:]

    public static func read(utf8 bytes: some Collection<UInt8>) -> VCardDetails {
        var details = VCardDetails()
        for line in VCardParser.firstCardLines(utf8: bytes) {
            guard case .success(let text) = line.text() else { continue }
            switch line.name {
            case "NOTE":
                let note = EscapedText.unescape(text.unicodeScalars, newlines: true)
                guard !ScalarText.trimmed(note).isEmpty else { continue }
                details.notes.append(
                    Note(
                        text: note, author: line.rawParameter("X-PROSPECTS-AUTHOR").map(ParameterValue.decode),
                        writtenAt: line.rawParameter("X-PROSPECTS-WRITTEN").map(ParameterValue.decode)))
            case "CATEGORIES":
                for category in EscapedText.split(text.unicodeScalars, on: ",") {
                    let value = ScalarText.trimmed(EscapedText.unescape(category, newlines: true))
                    if !value.isEmpty && !details.categories.contains(value) { details.categories.append(value) }
                }
            case let name where name.hasPrefix("X-") && details.extensions[name] == nil:
                details.extensions[name] = EscapedText.unescape(text.unicodeScalars, newlines: true)
            default: continue
            }
        }
        return details
    }

    /// A parameter value as RFC 6868 writes one (`^'` for `"`, `^n` for a line break, `^^` for `^`), in quotes.
    public enum ParameterValue {
        public static func encode(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "^": out += "^^"
                case "\"": out += "^'"
                case "\n": out += "^n"
                case "\r": continue
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }

        public static func decode(_ text: String) -> String {
            var out = String.UnicodeScalarView()
            var escaping = false
            for scalar in text.unicodeScalars {
                if escaping {
                    switch scalar {
                    case "^": out.append("^")
                    case "'": out.append("\"")
                    case "n", "N": out.append("\n")
                    default:
                        out.append("^")
                        out.append(scalar)
                    }
                    escaping = false
                } else if scalar == "^" {
                    escaping = true
                } else {
                    out.append(scalar)
                }
            }
            if escaping { out.append("^") }
            return String(out)
        }
    }
}
