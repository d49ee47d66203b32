/// The markers of a JPEG after its `SOI`, in order: one walk for `ImageCompleteness` (is the `EOI` there yet?) and
/// `JPEGScanCoverage` (do the scans cover the frame?).
///
/// Segments are skipped by their length; entropy-coded data, and garbage between segments (which decoders skip too),
/// byte by byte: `FF 00`, fill bytes, restart markers and `TEM` carry no length and belong to it. The walk ends at
/// `EOI` (`.end`), at a marker or segment cut off by the end of the bytes (`.cut`), or when the bytes end outside
/// a segment (no element).
struct JPEGMarkers: Sequence, IteratorProtocol {
    enum Element {
        /// A marker with a length: its code (the byte after `FF`) and the bytes its length covers after the length.
        case segment(marker: UInt8, body: UnsafeBufferPointer<UInt8>)
        /// The `EOI` marker.
        case end
        /// The bytes end inside a marker or a segment, or a segment's length is below 2.
        case cut
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 2
    private var finished = false

    /// The markers of `bytes`, whose first two are the `SOI` marker.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func next() -> Element? {
        guard !finished else { return nil }
        while offset < bytes.count {
            guard bytes[offset] == 0xFF else {
                offset += 1
                continue
            }
            guard offset + 1 < bytes.count else { return finish(.cut) }
            let marker = bytes[offset + 1]
            switch marker {
            case 0xD9:
                return finish(.end)
            case 0x00, 0xFF, 0xD0...0xD7, 0x01:
                // Stuffed byte, fill byte, restart marker, TEM: no length follows.
                offset += marker == 0xFF ? 1 : 2
            default:
                guard offset + 4 <= bytes.count else { return finish(.cut) }
                let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                guard length >= 2, offset + 2 + length <= bytes.count else { return finish(.cut) }
                let body = UnsafeBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 2 + length)])
                offset += 2 + length
                return .segment(marker: marker, body: body)
            }
        }
        return finish(nil)
    }

    private mutating func finish(_ element: Element?) -> Element? {
        finished = true
        return element
    }
}
