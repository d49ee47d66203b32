import Glibc

/// The text of a QR payload whose charset is not declared: UTF-8 if valid, else Shift_JIS if valid, else Latin-1.
///
/// zbar's own guessing turns some UTF-8 names into CJK (Jürgen → J羹rgen), so the scanner asks for raw bytes
/// and this type decides. Latin-1 cannot fail, so every payload gets a text. A code carrying an ECI has already
/// been converted to UTF-8 by zbar, even in binary mode, so it lands in the first branch.
public struct PayloadText: Sendable, Hashable {
    public enum Encoding: String, Sendable, Hashable, CaseIterable {
        case utf8 = "UTF-8"
        case shiftJIS = "Shift_JIS"
        case latin1 = "ISO-8859-1"
    }

    /// The payload without a leading UTF-8 byte order mark.
    public let bytes: [UInt8]
    public let text: String
    public let encoding: Encoding

    public init(_ payload: [UInt8]) {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let bytes = payload.starts(with: bom) ? Array(payload.dropFirst(bom.count)) : payload
        self.bytes = bytes
        if let text = String(validating: bytes, as: UTF8.self) {
            (self.text, self.encoding) = (text, .utf8)
        } else if let text = Self.convert(bytes, from: "SHIFT_JIS") {
            (self.text, self.encoding) = (Self.asciiRoman(text), .shiftJIS)
        } else {
            // Every byte is a Latin-1 character, and Latin-1 code points are the first 256 Unicode scalars.
            let scalars = String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })
            (self.text, self.encoding) = (String(scalars), .latin1)
        }
    }

    /// `text` with glibc's JIS X 0201 readings of the bytes 0x5C and 0x7E (¥ and ‾) turned back into ASCII `\`
    /// and `~`.
    ///
    /// QR encoders write URLs, MECARD escapes (`\:`) and paths in the ASCII half of Shift_JIS; ZXing and phones
    /// read those bytes as ASCII, and so does this type. No two-byte Shift_JIS character maps to U+00A5 or
    /// U+203E (the full-width forms are U+FFE5 and U+FFE3), so only single bytes change.
    static func asciiRoman(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\u{A5}" || $0 == "\u{203E}" }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\u{A5}": scalars.append("\\")
            case "\u{203E}": scalars.append("~")
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// `bytes` converted from `charset` to UTF-8 by glibc's iconv, or nil if they are not valid in that charset.
    ///
    /// The corresponding C functions are `iconv_open`, `iconv` and `iconv_close`.
    static func convert(_ bytes: [UInt8], from charset: String) -> String? {
        let converter = iconv_open("UTF-8", charset)
        guard let converter, converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }

        // A Shift_JIS character is 1 or 2 bytes and becomes at most 3 bytes of UTF-8.
        let capacity = bytes.count * 3 + 4
        var input = bytes
        var output = [UInt8](repeating: 0, count: capacity)
        let written: Int? = input.withUnsafeMutableBytes { inBuffer in
            output.withUnsafeMutableBytes { outBuffer in
                var inPointer = inBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count
                var outPointer = outBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outLeft = outBuffer.count
                // Invalid (EILSEQ), truncated (EINVAL) or overflowing (E2BIG) input: not this charset.
                guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1, inLeft == 0 else {
                    return nil
                }
                return outBuffer.count - outLeft
            }
        }
        guard let written else { return nil }
        return String(validating: output[..<written], as: UTF8.self)
    }
}
