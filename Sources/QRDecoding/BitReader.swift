/// Reads big-endian bit fields from bytes, most significant bit first: the QR data bit stream.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count * 8 - position }

    /// The next `count` (0 … 24) bits as a number.
    mutating func read(_ count: Int) throws(SymbolDecodeError) -> Int {
        guard count >= 0, count <= 24 else { throw .badBitStream(reason: "a field of \(count) bits") }
        guard count <= remaining else { throw .badBitStream(reason: "it ends inside a field") }
        var value = 0
        for _ in 0..<count {
            let bit = (bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
            value = value << 1 | Int(bit)
            position += 1
        }
        return value
    }
}
