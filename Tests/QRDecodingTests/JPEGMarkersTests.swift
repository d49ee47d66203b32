import ProspectsTestSupport
import Testing

@testable import QRDecoding

@Suite("JPEGMarkers: one walk over a JPEG's markers for completeness and scan coverage")
struct JPEGMarkersTests {
    /// What the walk yields over `bytes`: each segment's marker code and body length, "end" or "cut".
    static func walk(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBufferPointer { bytes in
            JPEGMarkers(bytes).map { element in
                switch element {
                case .segment(let marker, let body): "\(marker):\(body.count)"
                case .end: "end"
                case .cut: "cut"
                }
            }
        }
    }

    @Test("segments by their length, entropy-coded data skipped with its stuffed bytes and restarts, then EOI")
    func walk() {
        let app0: [UInt8] = [0xFF, 0xE0, 0, 4, 0xAA, 0xBB]
        let scan: [UInt8] = [0xFF, 0xDA, 0, 3, 0x01, 0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]
        let file: [UInt8] = [0xFF, 0xD8] + app0 + scan + [0xFF, 0xFF, 0xD9, 0xFF, 0xE1]  // a fill byte before EOI
        #expect(Self.walk(file) == ["224:2", "218:1", "end"])
        // Without EOI: the segments, then nothing; cut inside a segment, its length or a marker: then "cut".
        #expect(Self.walk(Array(file.prefix(file.count - 5))) == ["224:2", "218:1"])
        #expect(Self.walk(Array(file.prefix(file.count - 4))) == ["224:2", "218:1", "cut"])
        #expect(Self.walk(Array(file.prefix(2 + app0.count - 1))) == ["cut"])
        #expect(Self.walk(Array(file.prefix(2 + app0.count + 3))) == ["224:2", "cut"])
        #expect(Self.walk([0xFF, 0xD8, 0xFF, 0xE0, 0, 1]) == ["cut"])  // a length below 2
    }

    @Test("a real JPEG: its frame, tables and scan, then EOI")
    func realJPEG() throws {
        let jpeg = try PictureFixtures.convert(
            PNGFixtures.contactCode("Paul Hudson\npaul@hackingwithswift.com"), .jpegBaseline)
        let markers = Self.walk(jpeg)
        #expect(markers.last == "end")
        #expect(markers.contains { $0.hasPrefix("192:") } && markers.contains { $0.hasPrefix("218:") })
    }
}
