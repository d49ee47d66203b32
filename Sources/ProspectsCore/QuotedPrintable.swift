/// Decodes quoted-printable text (RFC 2045 §6.7), as vCard 2.1 writes non-ASCII values:
/// `FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Bj=C3=B6rn`.
enum QuotedPrintable {
    /// `bytes` with each `=XX` made the byte it names. A `=` at the very end (what is left of a soft line
    /// break once the lines are joined) is dropped; a `=` not followed by two hex digits is kept as written,
    /// as lenient decoders do.
    static func decode(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "=") {
                if index == bytes.count - 1 { break }
                if index + 2 < bytes.count, let high = hexDigit(UInt32(bytes[index + 1])),
                    let low = hexDigit(UInt32(bytes[index + 2]))
                {
                    out.append(high << 4 | low)
                    index += 3
                    continue
                }
            }
            out.append(byte)
            index += 1
        }
        return out
    }

    /// The value of an ASCII hex digit (either case), or `nil`.
    static func hexDigit(_ value: UInt32) -> UInt8? {
        switch value {
        case 0x30...0x39: UInt8(value - 0x30)
        case 0x41...0x46: UInt8(value - 0x41 + 10)
        case 0x61...0x66: UInt8(value - 0x61 + 10)
        default: nil
        }
    }
}
