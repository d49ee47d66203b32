import ProspectsTestSupport
import QRDecoding
import Testing

/// Each recovery pass on a synthesised image that the plain scan misses, and the filters behind them.
@Suite("Recovery passes: what the plain scan misses")
struct RecoveryPassTests {
    static let payload = "Zoë Müller\nzoe@example.com"

    /// `image` with every pixel changed by `transform(x, y, value)`.
    static func mapped(_ image: GrayImage, _ transform: (Int, Int, UInt8) -> UInt8) -> GrayImage {
        var out = image
        for y in 0..<image.height {
            for x in 0..<image.width {
                out.pixels[y * image.width + x] = transform(x, y, image.pixels[y * image.width + x])
            }
        }
        return out
    }

    @Test("a clean image costs one pass and reports it")
    func cleanImage() throws {
        let decoder = QRDecoder()
        let symbols = try decoder.decode(PNGFixtures.contactCode(Self.payload))
        #expect(symbols.map(\.pass) == ["original"])
        #expect(decoder.lastPass == .plainScan)
        #expect(decoder.lastPassCount == 1)
    }

    @Test("the quiet zone + Otsu pass reads a tinted code cropped to its edge, corners in the file's coordinates")
    func binarized() throws {
        // Cropped to the code's edge, dark modules a mid gray on a light gray ground. (zbar reads this one
        // unaided too; the photos it does not read, e.g. corpus qrcode-5/17–19, resist simple synthesis.)
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 4, margin: 0)
        let tinted = Self.mapped(code) { _, _, value in value == 0 ? 110 : 170 }
        let decoder = QRDecoder(pixelLimit: 1_000_000, passes: [.recovery(.binarized)])
        let symbols = try decoder.scan(tinted)
        #expect(symbols.map(\.text) == [Self.payload])
        #expect(decoder.lastPass == .recovery(.binarized))
        #expect(symbols.first?.pass == "binarized")
        for corner in try #require(symbols.first).corners {
            #expect(
                (-2...tinted.width + 2).contains(corner.x) && (-2...tinted.height + 2).contains(corner.y), "\(corner)")
        }
    }

    @Test("speckle noise: found by a blur pass")
    func blurred() throws {
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 6, margin: 4)
        // Every third pixel in a fixed pattern flipped half-way: false edges on every scan line.
        let noisy = Self.mapped(code) { x, y, value in (x * 7 + y * 13) % 3 == 0 ? (value == 0 ? 150 : 105) : value }
        let plain = QRDecoder(pixelLimit: 1_000_000, passes: [.plainScan])
        #expect(try plain.scan(noisy) == [])
        let blur = QRDecoder(pixelLimit: 1_000_000, passes: [.plainScan, .recovery(.blurred(radius: 1))])
        #expect(try blur.scan(noisy).map(\.text) == [Self.payload])
        #expect(blur.lastPassCount == 2)
    }

    @Test("the 3× bilinear pass reads a small code with corners in the small image; skipped on large images")
    func enlarged() throws {
        let small = PNGFixtures.codeImage(Self.payload, moduleSize: 2, margin: 4)
        let pass = QRDecoder.Pass.recovery(.enlarged(factor: 3, maxSourcePixels: 250_000))
        let decoder = QRDecoder(pixelLimit: 1_000_000, passes: [pass])
        let symbols = try decoder.scan(small)
        #expect(symbols.map(\.text) == [Self.payload])
        #expect(decoder.lastPass == pass)
        #expect(symbols.first?.pass == "enlarged-3x")
        for corner in try #require(symbols.first).corners {
            #expect((0...small.width).contains(corner.x) && (0...small.height).contains(corner.y), "\(corner)")
        }
        let blank = GrayImage(width: 600, height: 500, pixels: .init(repeating: 255, count: 300_000))
        #expect(try decoder.scan(blank) == [])
        #expect(decoder.lastPassCount == 0)  // over maxSourcePixels: not run
    }

    @Test("a huge image: recovery passes run on a reduced copy, corners mapped back to full size")
    func reducedCopy() throws {
        // A 3900 × 2600 photo with the code at (2000, 1000): reduced 4× to 975 × 650 for recovery.
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 16, margin: 4)
        let width = 3_900
        let height = 2_600
        var pixels = [UInt8](repeating: 200, count: width * height)
        for y in 0..<code.height {
            for x in 0..<code.width { pixels[(1_000 + y) * width + 2_000 + x] = code.pixels[y * code.width + x] }
        }
        let photo = GrayImage(width: width, height: height, pixels: pixels)
        let decoder = QRDecoder(pixelLimit: 20_000_000, passes: [.recovery(.binarized)])
        let symbols = try decoder.scan(photo)
        #expect(symbols.map(\.text) == [Self.payload])
        #expect(decoder.lastPassCount == 1)
        let corners = try #require(symbols.first).corners
        #expect(corners.map(\.x).min()! >= 2_000 && corners.map(\.x).max()! <= 2_000 + code.width + 8, "\(corners)")
        #expect(corners.map(\.y).min()! >= 1_000 && corners.map(\.y).max()! <= 1_000 + code.height + 8, "\(corners)")
    }

    @Test("a huge image with no code costs a bounded number of small scans")
    func boundedWorstCase() throws {
        let blank = GrayImage(width: 4_000, height: 3_000, pixels: .init(repeating: 180, count: 12_000_000))
        let decoder = QRDecoder(pixelLimit: 20_000_000)
        #expect(try decoder.scan(blank) == [])
        // The original, then the recovery passes that apply to a 1000 × 750 copy (no upscale: too large; the local
        // threshold's among them), and the located pass's finder search on that copy (no finder pattern, so no crop to scan), and the own-decoder
        // pass's, which finds none either.
        #expect(decoder.lastPassCount == 7)
    }

    @Test("a rotated pass reports corners in the unrotated image")
    func rotated() throws {
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 4, margin: 4)
        let decoder = QRDecoder(pixelLimit: 1_000_000, passes: [.recovery(.rotated(degrees: 30))])
        let symbols = try decoder.scan(code)
        #expect(symbols.map(\.text) == [Self.payload])
        #expect(symbols.first?.pass == "rotated-30")
        let plain = try QRScanner().scan(code)
        // Same corners as the plain scan (as a set: zbar may start the polygon elsewhere), within interpolation.
        for corner in try #require(symbols.first).corners {
            #expect(plain[0].corners.contains { abs($0.x - corner.x) <= 3 && abs($0.y - corner.y) <= 3 }, "\(corner)")
        }
    }

    @Test("filters: Otsu splits two levels, blur keeps flat areas, resampling sizes, quiet zone placement")
    func filters() {
        let twoLevels = GrayImage(width: 4, height: 1, pixels: [40, 60, 180, 200])
        #expect(Binarizer.otsu(twoLevels).pixels == [0, 0, 255, 255])
        let flat = GrayImage(width: 5, height: 4, pixels: .init(repeating: 77, count: 20))
        #expect(BoxBlur.blurred(flat, radius: 2) == flat)
        let step = GrayImage(width: 4, height: 1, pixels: [0, 0, 255, 255])
        #expect(BoxBlur.blurred(step, radius: 1).pixels == [0, 85, 170, 255])
        var reduced = GrayImage(width: 0, height: 0, pixels: [])
        Resampler.boxDownscale(GrayImage(width: 5, height: 3, pixels: Array(0..<15)), by: 2, into: &reduced)
        #expect(reduced.width == 2 && reduced.height == 1)
        #expect(reduced.pixels == [3, 5])  // (0+1+5+6)/4 = 3; the partial blocks at the edges are dropped
        let enlarged = Resampler.bilinearUpscaled(flat, by: 3)
        #expect(enlarged.width == 15 && enlarged.height == 12 && Set(enlarged.pixels) == [77])
        let padded = QuietZone.padded(GrayImage(width: 1, height: 1, pixels: [0]), by: 2)
        #expect(padded.width == 5 && padded.pixels.filter { $0 == 0 }.count == 1 && padded.pixels[12] == 0)
        let turned = Rotator.rotated(flat, degrees: 90)
        #expect(turned.image.width == 4 && turned.image.height == 5)
    }
}
