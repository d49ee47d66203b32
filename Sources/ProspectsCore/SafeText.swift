/// Makes untrusted text safe to print on a terminal.
///
/// Anyone can print a QR code, so a name may carry ESC sequences (terminal titles, OSC 52 clipboard writes),
/// bidi overrides or invisible characters. Everything a person sees goes through `escaped`, which shows such
/// characters as `\u{…}` instead of sending them to the terminal.
public enum SafeText {
    /// `text` with every unsafe scalar (see `isUnsafe`) and backslash escaped, cut to `limit` when given.
    ///
    /// The limit counts Unicode scalars, not `Character`s: one `Character` can hold any number of combining
    /// marks, so only a scalar count bounds the length of the output.
    public static func escaped(_ text: String, limit: Int? = nil) -> String {
        // Printable ASCII without a backslash, within the limit, escapes to itself.
        let plain = LatinText.withBytes(of: text, below: 0x7F) { bytes in
            bytes.count <= (limit ?? .max) && !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\\") }
        }
        if plain == true { return text }
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

    /// `text` with only its unsafe scalars escaped as `\u{…}`; backslashes and line feeds are left alone.
    ///
    /// The last guard before a terminal, for messages that are built from already escaped parts: escaping them
    /// again with `escaped` would double every backslash, while this only catches what slipped through.
    public static func neutralized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 != "\n" && isUnsafe($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar != "\n" && isUnsafe(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// True for scalars that must never reach a terminal or a stored name: C0/C1 controls, DEL, bidi
    /// embeddings, overrides and isolates, zero-width and other invisible format characters, and noncharacters.
    ///
    /// Also every other default-ignorable code point (Hangul fillers, the combining grapheme joiner, Khmer
    /// inherent vowels…): fonts draw them as nothing, which makes a name look empty or like someone else's.
    /// Variation selectors are the exception: they only choose a glyph for the scalar before them (the emoji
    /// form of ❤︎, a Japanese ideographic variant) and are common in names typed on phones.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        // Below U+0300 the property lookups come down to a few fixed code points, and a list of names spent half
        // its time in them.
        scalar.value < 0x300 ? LatinText.isUnsafe(scalar.value) : isUnsafeByProperties(scalar)
    }

    /// `isUnsafe` from the Unicode properties, for every scalar (`FastPathEquivalenceTests` compares the two).
    static func isUnsafeByProperties(_ scalar: Unicode.Scalar) -> Bool {
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
            let properties = scalar.properties
            if properties.generalCategory == .format { return true }  // soft hyphen, Arabic number signs, …
            return properties.isDefaultIgnorableCodePoint && !properties.isVariationSelector
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
        // Control characters have no Unicode name (only aliases, which the standard library does not expose),
        // and they are the ones a message most often has to point at.
        if let name = controlNames[value] {
            return "U+\(padded) \(name)"
        }
        if let scalar = Unicode.Scalar(value), let name = scalar.properties.name ?? scalar.properties.nameAlias {
            return "U+\(padded) \(name)"
        }
        return "U+\(padded)"
    }

    /// The aliases of the controls a hostile payload is most likely to carry.
    private static let controlNames: [UInt32: String] = [
        0x00: "NULL", 0x07: "BELL", 0x08: "BACKSPACE", 0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED",
        0x0B: "LINE TABULATION", 0x0C: "FORM FEED", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE", 0x7F: "DELETE",
        0x85: "NEXT LINE", 0x9B: "CONTROL SEQUENCE INTRODUCER", 0x9D: "OPERATING SYSTEM COMMAND",
    ]
}
