import ProspectsTestSupport
import Testing

@testable import QRDecoding

/// The geometry pass and its parts on generated codes warped by a known perspective: what zbar alone misses.
@Suite("Geometry pass: finder patterns, perspective maps, upright crops")
struct GeometryPassTests {
    static let payload = "Zoë Müller\nzoe@example.com\n+41 44 668 18 00"

    /// `code` drawn onto a white `width` × `height` picture so that its four corners land on `quad` (top-left,
    /// top-right, bottom-right, bottom-left): a flat code photographed at an angle. Bilinear sampling, like a lens.
    static func warped(_ code: GrayImage, onto quad: [(x: Double, y: Double)], width: Int, height: Int) throws
        -> GrayImage
    {
        let side = (x: Double(code.width), y: Double(code.height))
        let corners: [(x: Double, y: Double)] = [(0, 0), (side.x, 0), (side.x, side.y), (0, side.y)]
        let toCode = try #require(PerspectiveMap(from: quad, to: corners))
        var pixels = [UInt8](repeating: 255, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                guard let point = toCode.apply(Double(x) + 0.5, Double(y) + 0.5) else { continue }
                let fx = point.x - 0.5
                let fy = point.y - 0.5
                guard fx >= 0, fy >= 0, fx < side.x - 1, fy < side.y - 1 else { continue }
                let x0 = Int(fx)
                let y0 = Int(fy)
                let wx = fx - Double(x0)
                let wy = fy - Double(y0)
                func at(_ x: Int, _ y: Int) -> Double { Double(code.pixels[y * code.width + x]) }
                let top = at(x0, y0) * (1 - wx) + at(x0 + 1, y0) * wx
                let bottom = at(x0, y0 + 1) * (1 - wx) + at(x0 + 1, y0 + 1) * wx
                pixels[y * width + x] = UInt8((top * (1 - wy) + bottom * wy).rounded())
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    @Test("a homography through four points maps them exactly, and its inverse maps them back")
    func perspectiveMap() throws {
        let from: [(x: Double, y: Double)] = [(0, 0), (10, 0), (10, 10), (0, 10)]
        let to: [(x: Double, y: Double)] = [(3, 5), (120, 20), (100, 140), (-4, 90)]
        let map = try #require(PerspectiveMap(from: from, to: to))
        let inverse = try #require(map.inverse)
        for (p, q) in zip(from, to) {
            let image = try #require(map.apply(p.x, p.y))
            #expect(abs(image.x - q.x) < 1e-6 && abs(image.y - q.y) < 1e-6)
            let back = try #require(inverse.apply(q.x, q.y))
            #expect(abs(back.x - p.x) < 1e-6 && abs(back.y - p.y) < 1e-6)
        }
        // A least-squares fit to twelve exact points recovers the same map.
        let grid: [(x: Double, y: Double)] = (0..<12).map { (Double($0 % 4) * 3, Double($0 / 4) * 4.5) }
        let images = try grid.map { try #require(map.apply($0.x, $0.y)) }
        let fitted = try #require(PerspectiveMap(fitting: grid, to: images))
        let probe = try #require(fitted.apply(7, 2))
        let expected = try #require(map.apply(7, 2))
        #expect(abs(probe.x - expected.x) < 1e-6 && abs(probe.y - expected.y) < 1e-6)
        // Three points on a line: no map.
        #expect(PerspectiveMap(from: [(0, 0), (1, 1), (2, 2), (0, 5)], to: to) == nil)
    }

    @Test("the three finder patterns of a clean code are found at their centres, grouped with their places")
    func finderPatterns() throws {
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 4, margin: 4)
        let mask = LocalThreshold.darkMask(code, radius: 20)
        let patterns = FinderPatternFinder.find(mask: mask, width: code.width, height: code.height)
        let dimension = code.width / 4 - 8
        let near = 4 * 7.5
        let far = 4 * (4 + Double(dimension) - 3.5)
        for centre in [(near, near), (far, near), (near, far)] {
            #expect(
                patterns.contains { abs($0.x - centre.0) < 1.5 && abs($0.y - centre.1) < 1.5 },
                "\(centre) in \(patterns)")
        }
        let triple = try #require(FinderTriple.triples(from: patterns).first)
        #expect(abs(triple.topLeft.x - near) < 1.5 && abs(triple.topLeft.y - near) < 1.5)
        #expect(abs(triple.topRight.x - far) < 1.5 && abs(triple.bottomLeft.y - far) < 1.5)
        #expect(triple.dimension == dimension)
        #expect(abs(triple.topLeft.moduleSize - 4) < 0.5)
    }

    @Test(
        "a code seen in steep perspective: zbar misses it, the located pass reads it",
        arguments: [
            // Squashed to a third of its height and narrowed towards the right; turned by about 35° with its far
            // corner pulled in; turned by about 55° in strong shear; seen from low down, a trapezoid a third as tall as
            // wide whose far edge is half its near one (modules under 2 pixels tall).
            [(20.0, 60.0), (340.0, 20.0), (300.0, 200.0), (60.0, 180.0)],
            [(100.0, 20.0), (340.0, 200.0), (180.0, 340.0), (10.0, 120.0)],
            [(150.0, 10.0), (350.0, 150.0), (100.0, 350.0), (10.0, 100.0)],
            [(20.0, 20.0), (340.0, 20.0), (250.0, 120.0), (110.0, 120.0)],
        ])
    func perspective(quad: [(Double, Double)]) throws {
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 4, margin: 2)
        let photo = try Self.warped(code, onto: quad.map { (x: $0.0, y: $0.1) }, width: 360, height: 360)
        let others = QRDecoder(
            pixelLimit: 1_000_000, passes: QRDecoder.defaultPasses.filter { $0 != .located && $0 != .ownDecoder })
        #expect(try others.scan(photo) == [])
        let decoder = QRDecoder()
        let symbols = try decoder.scan(photo)
        #expect(symbols.map(\.text) == [Self.payload])
        #expect(symbols.first?.pass == "located")
        #expect(decoder.lastPass == .located)
        // Corners back in the photo's coordinates: the code's corners (inside its 2-module margin) seen through
        // the same perspective.
        let side = Double(code.width)
        let toPhoto = try #require(
            PerspectiveMap(from: [(0, 0), (side, 0), (side, side), (0, side)], to: quad.map { (x: $0.0, y: $0.1) }))
        let margin = 8.0
        let expected = try [
            (margin, margin), (side - margin, margin), (side - margin, side - margin), (margin, side - margin),
        ]
        .map { try #require(toPhoto.apply($0.0, $0.1)) }
        let corners = try #require(symbols.first).corners
        #expect(corners.count == 4)
        for corner in corners {
            #expect(
                expected.contains { abs($0.x - Double(corner.x)) < 8 && abs($0.y - Double(corner.y)) < 8 },
                "\(corner) not near \(expected)")
        }
    }

    /// A code from a synthetic phone photo (Fixtures/SOURCES.md): version 7, 3 px a module, blurred with σ 1.2.
    @Test("a blurred code: its finder patterns found below the local mean, its modules sharpened, our decoder reads it")
    func blurredCode() throws {
        var image = GrayImage(width: 0, height: 0, pixels: [])
        _ = try PNGReader().read(try fixture("blurred-v7-photo-crop.png"), into: &image)
        let radius = max(image.width, image.height) / 20
        func patterns(_ window: ThresholdWindow) -> [FinderPatternFinder.Pattern] {
            FinderPatternFinder.find(
                mask: LocalThreshold.darkMask(image, radius: radius, bias: window.bias), width: image.width,
                height: image.height)
        }
        // At the usual threshold blur closes the finder patterns' light rings.
        #expect(patterns(.fine).count < 3)
        let triple = try #require(FinderTriple.triples(from: patterns(.blurred)).first)
        #expect(triple.dimension == 45)
        // The affine map through the three centres, as the pass makes it.
        let size = 45.0
        let map = try #require(
            PerspectiveMap(
                from: [(3.5, 3.5), (size - 3.5, 3.5), (3.5, size - 3.5), (size - 3.5, size - 3.5)],
                to: [triple.topLeft, triple.topRight, triple.bottomLeft].map { (x: $0.x, y: $0.y) } + [
                    (
                        x: triple.topRight.x + triple.bottomLeft.x - triple.topLeft.x,
                        y: triple.topRight.y + triple.bottomLeft.y - triple.topLeft.y
                    )
                ]))
        let plain = try #require(ModuleGrid.sampled(image, map: map, dimension: 45))
        #expect(throws: SymbolDecodeError.self) { try ModuleDecoder.payload(plain) }
        let sharpened = try #require(ModuleGrid.sampled(image, map: map, dimension: 45, sharpening: 1))
        let expected =
            "BEGIN:VCARD\nVERSION:3.0\nN:Rossi;Bruno;;;\nFN:Bruno Rossi\nORG:Example 1 Ltd\n"
            + "EMAIL:bruno.rossi2@example9.com\nEND:VCARD"
        #expect(try ModuleDecoder.payload(sharpened) == Array(expected.utf8))
        let symbols = try QRDecoder().scan(image)
        #expect(symbols.map(\.text) == [expected])
        #expect(symbols.first?.pass == "own-decoder")
    }

    @Test("the located pass runs only after every other pass found nothing: a clean code costs one scan")
    func cleanPathUnchanged() throws {
        let decoder = QRDecoder()
        #expect(QRDecoder.defaultPasses.suffix(2) == [.located, .ownDecoder])
        let symbols = try decoder.decode(PNGFixtures.contactCode(Self.payload))
        #expect(symbols.map(\.pass) == ["original"])
        #expect(decoder.lastPassCount == 1)
    }

    @Test("noise, flat and tiny images: nothing found, nothing crashes")
    func noCode() throws {
        var state: UInt32 = 12345
        let noise = GrayImage(
            width: 200, height: 150,
            pixels: (0..<30_000).map { _ in
                state = state &* 1_103_515_245 &+ 12345
                return UInt8(truncatingIfNeeded: state >> 16)
            })
        let located = QRDecoder(pixelLimit: 1_000_000, passes: [.located])
        #expect(try located.scan(noise) == [])
        #expect(try located.scan(GrayImage(width: 64, height: 64, pixels: .init(repeating: 200, count: 4096))) == [])
        #expect(try located.scan(GrayImage(width: 3, height: 2, pixels: .init(repeating: 0, count: 6))) == [])
        #expect(try located.scan(GrayImage(width: 0, height: 0, pixels: [])) == [])
        // Rows all dark, or one dark run then light (fewer runs than a pattern has): found by the fuzzer.
        let halfDark = GrayImage(
            width: 48, height: 48, pixels: (0..<2304).map { $0 < 1000 ? 0 : ($0 % 48 < 3 ? 0 : 255) })
        #expect(try located.scan(halfDark) == [])
    }
    /// The local threshold as first written (an integral image of the whole picture): the reference for the sliding
    /// sums now used.
    static func integralDarkMask(_ image: GrayImage, radius: Int, bias: Int = 3) -> [UInt8] {
        let (width, height) = (image.width, image.height)
        let stride = width + 1
        var sums = [Int](repeating: 0, count: stride * (height + 1))
        for y in 0..<height {
            var rowSum = 0
            for x in 0..<width {
                rowSum += Int(image.pixels[y * width + x])
                sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + rowSum
            }
        }
        var mask = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            let (top, bottom) = (max(0, y - radius), min(height, y + radius + 1))
            for x in 0..<width {
                let (left, right) = (max(0, x - radius), min(width, x + radius + 1))
                let sum =
                    sums[bottom * stride + right] - sums[top * stride + right] - sums[bottom * stride + left]
                    + sums[top * stride + left]
                let area = (bottom - top) * (right - left)
                mask[y * width + x] = (Int(image.pixels[y * width + x]) + bias) * area < sum ? 1 : 0
            }
        }
        return mask
    }

    @Test("the local threshold's sliding window sums give the integral image's mask, edges and large windows too")
    func slidingThreshold() {
        var state: UInt32 = 7
        for (width, height, radius) in [(1, 1, 1), (5, 3, 1), (37, 23, 4), (64, 48, 40), (131, 97, 8), (300, 1, 20)] {
            let pixels = (0..<(width * height)).map { index -> UInt8 in
                state = state &* 1_103_515_245 &+ 12345
                // Noise over a slope, so that the mask is neither all dark nor all light.
                return UInt8(truncatingIfNeeded: Int(state >> 24) / 2 + index % max(1, width) * 100 / max(1, width))
            }
            let image = GrayImage(width: width, height: height, pixels: pixels)
            let mask = LocalThreshold.darkMask(image, radius: radius)
            #expect(mask == Self.integralDarkMask(image, radius: radius), "\(width) × \(height), radius \(radius)")
        }
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 3)
        let mask = LocalThreshold.darkMask(code, radius: 20)
        #expect(mask == Self.integralDarkMask(code, radius: 20) && mask.contains(1) && mask.contains(0))
    }
}
