import ProspectsTestSupport
import Testing

@testable import QRDecoding

/// The busy regions of a picture, and the large-JPEG path that reads small codes from full-size crops of them.
@Suite("Code regions: busy parts of a large photo, read at full size")
struct CodeRegionFinderTests {
    static let payload = "Ada Okafor\nada.okafor@example.com"

    static func desk(width: Int, height: Int, codes: [(image: GrayImage, x: Int, y: Int)]) -> GrayImage {
        DeskPicture.make(width: width, height: height, codes: codes)
    }

    @Test("a code on a noisy desk is the busiest region, and its box holds the whole code")
    func codeIsFound() {
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 2)
        let (x, y) = (700, 330)
        let image = Self.desk(width: 1000, height: 600, codes: [(code, x, y)])
        let regions = CodeRegionFinder.regions(in: image, limit: 4)
        #expect(regions.count == 1, "\(regions)")
        let region = regions.first
        #expect(
            region.map { $0.x0 <= x && $0.y0 <= y && $0.x1 >= x + code.width && $0.y1 >= y + code.height } == true,
            "\(String(describing: region)) for a code at \(x), \(y) of \(code.width) × \(code.height)")
    }

    @Test("the busiest regions come first, and no more than the limit")
    func busiestFirstAndLimit() {
        let small = PNGFixtures.codeImage(Self.payload, moduleSize: 2)
        let large = PNGFixtures.codeImage(Self.payload + "\n+44 20 7946 0958 and more text", moduleSize: 2)
        let image = Self.desk(width: 1000, height: 600, codes: [(small, 40, 40), (large, 600, 250)])
        let regions = CodeRegionFinder.regions(in: image, limit: 4)
        #expect(regions.count == 2, "\(regions)")
        #expect(regions.first.map { $0.x0 >= 500 } == true, "the larger code first: \(regions)")
        #expect(CodeRegionFinder.regions(in: image, limit: 1).count == 1)
        #expect(CodeRegionFinder.regions(in: image, limit: 0).isEmpty)
    }

    @Test("a flat picture, a noisy desk and a picture smaller than a cell have no region")
    func nothingBusy() {
        let flat = GrayImage(width: 640, height: 480, pixels: .init(repeating: 200, count: 640 * 480))
        #expect(CodeRegionFinder.regions(in: flat, limit: 4).isEmpty)
        #expect(CodeRegionFinder.regions(in: Self.desk(width: 640, height: 480, codes: []), limit: 4).isEmpty)
        let tiny = GrayImage(width: 15, height: 40, pixels: .init(repeating: 0, count: 600))
        #expect(CodeRegionFinder.regions(in: tiny, limit: 4).isEmpty)
        #expect(CodeRegionFinder.regions(in: GrayImage(width: 0, height: 0, pixels: []), limit: 4).isEmpty)
    }

    @Test("a noisier picture raises the edge threshold above the minimum")
    func edgeThresholdFollowsNoise() {
        #expect(CodeRegionFinder.edgeThreshold(Self.desk(width: 200, height: 100, codes: [])) == 20)
        var state: UInt64 = 42
        let noisy = (0..<(200 * 100)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        #expect(CodeRegionFinder.edgeThreshold(GrayImage(width: 200, height: 100, pixels: noisy)) > 20)
    }

    @Test("a small code in a large JPEG is read from a full-size crop of its region, corners in the full picture")
    func smallCodeInLargeJPEG() throws {
        // 3 pixels a module, blurred: 1.5 on the reduced copy, too few for its scan.
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 3)
        let (width, height, left, top) = (4000, 3000, 2900, 500)
        let picture = Self.desk(width: width, height: height, codes: [(code, left, top)])
        let jpeg = try PictureFixtures.convert(PNGFixtures.png(picture), .jpegBaseline)
        let decoder = QRDecoder()
        let symbol = try #require(try decoder.decode(jpeg).first)
        #expect(symbol.text == Self.payload)
        #expect(symbol.pass == "region")
        #expect(decoder.lastPicture?.reduction == 1)
        // The pass that read it: finder patterns in the region's full-size crop (zbar's scan of the crop misses it).
        #expect(decoder.lastPass == .regionCrops(.located))
        #expect(
            symbol.corners.allSatisfy {
                $0.x >= left - 2 && $0.x <= left + code.width + 2 && $0.y >= top - 2 && $0.y <= top + code.height + 2
            }, "\(symbol.corners)")
    }
}
