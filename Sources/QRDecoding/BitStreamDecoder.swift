/// Turns a QR code's corrected data codewords into its payload: numeric, alphanumeric, byte, Kanji and Hanzi
/// segments, ECI charset declarations, structured append and FNC1 headers.
///
/// The payload is what zbar's binary mode gives: the raw bytes when the code declares no charset (Kanji as
/// Shift_JIS bytes, for PayloadText to recognise), UTF-8 when it does, by an ECI or by Hanzi mode (GB2312).
enum BitStreamDecoder {
    /// The payload of `data` from a symbol of `version`; `model` one starts with 4 zero bits and has no ECI.
    static func payload(
        _ data: [UInt8], version: Int, model: FormatInformation.Model
    ) throws(SymbolDecodeError) -> [UInt8] {
        var reader = BitReader(data)
        if model == .one { _ = try reader.read(4) }
        // Segments with the charset their bytes are in; nil for bytes whose charset is undeclared.
        var segments: [(bytes: [UInt8], charset: String?)] = []
        var declared: String?
        let sizeClass = version <= 9 ? 0 : (version <= 26 ? 1 : 2)
        while reader.remaining >= 4 {
            let mode = try reader.read(4)
            switch mode {
            case 0b0000:
                return joined(segments)
            case 0b0001:
                let count = try reader.read([10, 12, 14][sizeClass])
                segments.append((try numeric(&reader, count: count), "US-ASCII"))
            case 0b0010:
                let count = try reader.read([9, 11, 13][sizeClass])
                segments.append((try alphanumeric(&reader, count: count), "US-ASCII"))
            case 0b0100:
                let count = try reader.read([8, 16, 16][sizeClass])
                var bytes: [UInt8] = []
                for _ in 0..<count { bytes.append(UInt8(try reader.read(8))) }
                segments.append((bytes, declared))
            case 0b1000:
                let count = try reader.read([8, 10, 12][sizeClass])
                segments.append((try doubleByte(&reader, count: count, kanji: true), declared ?? "SHIFT_JIS"))
            case 0b1101:
                // Hanzi (GB/T 18284): a 4-bit subset, 1 for GB2312, then the count.
                guard try reader.read(4) == 1 else { throw .badBitStream(reason: "a Hanzi subset other than GB2312") }
                let count = try reader.read([8, 10, 12][sizeClass])
                segments.append((try doubleByte(&reader, count: count, kanji: false), "GB18030"))
            case 0b0111:
                guard model == .two else { throw .badBitStream(reason: "an ECI in a Model 1 code") }
                declared = try charset(eci: try eciNumber(&reader))
            case 0b0011:
                _ = try reader.read(16)  // structured append: position, total and parity of a sequence
            case 0b0101:
                break  // FNC1 in first position (GS1): no data of its own
            case 0b1001:
                _ = try reader.read(8)  // FNC1 in second position: the application indicator
            default:
                throw .badBitStream(reason: "unknown mode \(mode)")
            }
        }
        return joined(segments)
    }

    /// The segments as one payload: raw when no charset was declared, else every segment in UTF-8.
    private static func joined(_ segments: [(bytes: [UInt8], charset: String?)]) -> [UInt8] {
        let declares = segments.contains { $0.charset != nil && $0.charset != "US-ASCII" && $0.charset != "SHIFT_JIS" }
        guard declares else { return segments.flatMap(\.bytes) }
        return segments.flatMap { segment -> [UInt8] in
            guard let charset = segment.charset, charset != "US-ASCII", charset != "UTF-8",
                let text = PayloadText.convert(segment.bytes, from: charset)
            else { return segment.bytes }
            return Array(text.utf8)
        }
    }

    private static func numeric(_ reader: inout BitReader, count: Int) throws(SymbolDecodeError) -> [UInt8] {
        var out: [UInt8] = []
        var left = count
        while left > 0 {
            let digits = min(3, left)
            let value = try reader.read([4, 7, 10][digits - 1])
            guard value < [10, 100, 1000][digits - 1] else {
                throw .badBitStream(reason: "a numeric group of \(value)")
            }
            var text = Array(String(value).utf8)
            while text.count < digits { text.insert(UInt8(ascii: "0"), at: 0) }
            out += text
            left -= digits
        }
        return out
    }

    private static let alphanumericTable = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:".utf8)

    private static func alphanumeric(_ reader: inout BitReader, count: Int) throws(SymbolDecodeError) -> [UInt8] {
        var out: [UInt8] = []
        var left = count
        while left > 1 {
            let pair = try reader.read(11)
            guard pair < 45 * 45 else { throw .badBitStream(reason: "an alphanumeric pair of \(pair)") }
            out += [alphanumericTable[pair / 45], alphanumericTable[pair % 45]]
            left -= 2
        }
        if left == 1 {
            let single = try reader.read(6)
            guard single < 45 else { throw .badBitStream(reason: "an alphanumeric character of \(single)") }
            out.append(alphanumericTable[single])
        }
        return out
    }

    /// Kanji (Shift_JIS) or Hanzi (GB2312) characters, 13 bits each, as their two-byte codes.
    private static func doubleByte(
        _ reader: inout BitReader, count: Int, kanji: Bool
    ) throws(SymbolDecodeError) -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<count {
            let value = try reader.read(13)
            var code: Int
            if kanji {
                code = (value / 0xC0) << 8 | (value % 0xC0)
                code += code < 0x1F00 ? 0x8140 : 0xC140
            } else {
                code = (value / 0x60) << 8 | (value % 0x60)
                code += code < 0x0A00 ? 0xA1A1 : 0xA6A1
            }
            guard code <= 0xFFFF else { throw .badBitStream(reason: "a double-byte character of \(value)") }
            out += [UInt8(code >> 8), UInt8(code & 0xFF)]
        }
        return out
    }

    /// The ECI assignment number: 1, 2 or 3 bytes, told by the first byte's leading bits.
    private static func eciNumber(_ reader: inout BitReader) throws(SymbolDecodeError) -> Int {
        let first = try reader.read(8)
        if first & 0x80 == 0 { return first }
        if first & 0xC0 == 0x80 { return (first & 0x3F) << 8 | (try reader.read(8)) }
        if first & 0xE0 == 0xC0 { return (first & 0x1F) << 16 | (try reader.read(16)) }
        throw .badBitStream(reason: "an ECI designator starting \(first)")
    }

    /// The iconv name of ECI `number`'s charset.
    private static func charset(eci number: Int) throws(SymbolDecodeError) -> String {
        switch number {
        case 0, 2: return "CP437"
        case 1, 3: return "ISO-8859-1"
        case 4...13: return "ISO-8859-\(number - 2)"
        case 15...18: return "ISO-8859-\(number - 2)"
        case 20: return "SHIFT_JIS"
        case 21: return "CP1250"
        case 22: return "CP1251"
        case 23: return "CP1252"
        case 24: return "CP1256"
        case 25: return "UTF-16BE"
        case 26: return "UTF-8"
        case 27, 170: return "US-ASCII"
        case 28: return "BIG5"
        case 29: return "GB18030"
        case 30: return "EUC-KR"
        default: throw .badBitStream(reason: "ECI \(number), a charset Prospects does not read")
        }
    }
}
