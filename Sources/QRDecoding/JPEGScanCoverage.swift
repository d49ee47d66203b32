/// Whether the scans a JPEG's bytes hold give every coefficient of every component its final value, read from its
/// markers alone (no decoding).
///
/// A JPEG that lacks only its `EOI` is whole when this holds and libjpeg reads every scan's entropy-coded data
/// without a warning; a progressive file cut between two scans holds whole scans but not all of them, and libjpeg
/// decodes it blurred without a word, so this check is what refuses it. An arithmetic-coded frame never passes:
/// libjpeg feeds its decoder zeros past the end of the data without a warning, so a cut one looks whole.
enum JPEGScanCoverage {
    /// True when a frame header is there and its scans cover it: for a sequential frame each component is in a scan;
    /// for a progressive one each component's 64 coefficients are each in a scan whose successive approximation
    /// ends at bit 0 (`Al` = 0). False when the markers end inside a segment, and for arithmetic coding.
    static func isComplete(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var components: [UInt8] = []
        var progressive = false
        // For each component id, a bit per coefficient that reached full precision (bit 0 only when sequential).
        var covered: [UInt8: UInt64] = [:]
        markers: for marker in JPEGMarkers(bytes) {
            switch marker {
            case .end:
                break markers
            case .cut:
                return false
            case .segment(let marker, let segment):
                switch marker {
                case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                    guard components.isEmpty, segment.count >= 6 else { return false }
                    let count = Int(segment[5])
                    guard count > 0, segment.count >= 6 + 3 * count else { return false }
                    guard marker < 0xC9 else { return false }  // arithmetic coding
                    components = (0..<count).map { segment[6 + 3 * $0] }
                    progressive = marker == 0xC2 || marker == 0xC6
                case 0xDA:
                    guard !components.isEmpty, segment.count >= 1 else { return false }
                    let count = Int(segment[0])
                    guard count > 0, segment.count >= 1 + 2 * count + 3 else { return false }
                    let start = Int(segment[1 + 2 * count])
                    let end = Int(segment[2 + 2 * count])
                    let lastBit = segment[3 + 2 * count] & 0x0F
                    var bits: UInt64 = 1
                    if progressive {
                        guard start <= end, end < 64 else { return false }
                        bits = lastBit == 0 ? (UInt64.max >> (63 - end)) & (UInt64.max << start) : 0
                    }
                    for index in 0..<count { covered[segment[1 + 2 * index], default: 0] |= bits }
                default:
                    break
                }
            }
        }
        guard !components.isEmpty else { return false }
        let full: UInt64 = progressive ? .max : 1
        return components.allSatisfy { covered[$0, default: 0] & full == full }
    }
}
