/// Why our own decoder could not read a sampled QR module grid (QRDecoder's last pass: Model 1 and Hanzi codes).
///
/// Internal to the pass: a grid it cannot read is a code not found, never an error of `decode`.
public enum SymbolDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The grid's side is no QR size (21 … 177, 1 modulo 4; Model 1 stops at 73).
    case badDimension(Int)
    /// Neither copy of the 15-bit format information is within 3 bits of a valid one.
    case unreadableFormat
    /// A block has more wrong codewords than its error correction can fix.
    case tooManyErrors
    /// The corrected data is no valid bit stream: an unknown mode, a count past the end, a bad digit.
    case badBitStream(reason: String)

    public var description: String {
        switch self {
        case .badDimension(let side): "\(side) modules a side is no QR code size"
        case .unreadableFormat: "the format information is unreadable"
        case .tooManyErrors: "too many wrong codewords for the error correction"
        case .badBitStream(let reason): "the data bit stream is invalid: \(reason)"
        }
    }
}
