/// Makes untrusted text safe to print on a terminal.
///
/// Anyone can print a QR code, so a name may carry ESC sequences (terminal titles, OSC 52 clipboard writes),
/// bidi overrides or invisible characters. Everything a person sees goes through `escaped`, which shows such
/// characters as `\u{…}` instead of sending them to the terminal.
public enum SafeText {
    /// `text` with every unsafe scalar (see `isUnsafe`) and backslash escaped, cut to `limit` characters when given.
    public static func escaped(_ text: String, limit: Int? = nil) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if let limit, count >= limit {
                out += "…"
                break
            }
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if isUnsafe(scalar) {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            count += 1
        }
        return out
    }

    /// True for scalars that must never reach a terminal or a stored name: C0/C1 controls, DEL, bidi
    /// embeddings, overrides and isolates, zero-width and other invisible format characters, and noncharacters.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        switch v {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1 (includes ESC and CSI)
        case 0x200B...0x200F: return true  // zero-width space/joiners, LRM, RLM
        case 0x2028, 0x2029: return true  // line and paragraph separators
        case 0x202A...0x202E: return true  // bidi embeddings and overrides
        case 0x2060...0x206F: return true  // word joiner, invisible operators, bidi isolates
        case 0xFEFF: return true  // BOM / zero-width no-break space
        case 0xFFF9...0xFFFB: return true  // interlinear annotation controls
        case 0xFDD0...0xFDEF: return true  // noncharacters
        case 0xE0000...0xE007F: return true  // tag characters
        default:
            if v & 0xFFFE == 0xFFFE { return true }  // U+xFFFE / U+xFFFF noncharacters
            return scalar.properties.generalCategory == .format  // soft hyphen, Arabic number signs, …
        }
    }

    /// The first unsafe scalar in `text`, if any.
    public static func firstUnsafe(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isUnsafe)
    }

    /// `U+202E RIGHT-TO-LEFT OVERRIDE` style description of a code point, for messages.
    public static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if let scalar = Unicode.Scalar(value), let name = scalar.properties.name ?? scalar.properties.nameAlias {
            return "U+\(padded) \(name)"
        }
        return "U+\(padded)"
    }
}
