import Foundation
import ProspectsTestSupport
import Testing

@testable import QRDecoding

@Suite("The first pass: a cheap scan (shrunk or sparse), then the full scan only when it finds nothing")
struct FirstPassTests {
    static let payload = "Zoë Müller\nzoe@example.com"

    @Test("the module size is read off the runs of a clean code", arguments: 2...9)
    func moduleSize(module: Int) {
        let image = PNGFixtures.codeImage(Self.payload, moduleSize: module)
        #expect(ModuleSize.estimate(image) == module)
    }

    @Test("1-pixel modules read as at most 2 (levels are means of two pixels): never shrunk")
    func onePixelModules() {
        let image = PNGFixtures.codeImage(Self.payload, moduleSize: 1)
        #expect((1...2).contains(ModuleSize.estimate(image) ?? 0))
        #expect(FirstPass().plan(for: image) == FirstPass.Plan(factor: 1, density: 2))
    }

    @Test("no estimate without edges")
    func flat() {
        #expect(
            ModuleSize.estimate(GrayImage(width: 300, height: 200, pixels: .init(repeating: 200, count: 60_000))) == nil
        )
        #expect(ModuleSize.estimate(GrayImage(width: 4, height: 4, pixels: .init(repeating: 0, count: 16))) == nil)
    }

    @Test("plans: shrink two-level codes to 2 pixels a module, by half steps; else every second line")
    func plans() {
        let pass = FirstPass()
        let cases: [(module: Int, plan: FirstPass.Plan)] = [
            (1, .init(factor: 1, density: 2)), (2, .init(factor: 1, density: 2)), (3, .init(halves: 3, density: 1)),
            (4, .init(factor: 2, density: 1)), (5, .init(halves: 5, density: 1)), (6, .init(factor: 3, density: 1)),
            (7, .init(halves: 7, density: 1)), (8, .init(factor: 4, density: 1)),
        ]
        for (module, plan) in cases {
            #expect(pass.plan(for: PNGFixtures.codeImage(Self.payload, moduleSize: module)) == plan, "module \(module)")
        }
    }

    @Test("shrinking averages each block and drops the leftover columns and rows")
    func downscale() {
        let image = GrayImage(width: 5, height: 3, pixels: [0, 255, 10, 20, 99, 255, 255, 30, 40, 99, 7, 7, 7, 7, 7])
        var small = GrayImage(width: 9, height: 9, pixels: .init(repeating: 1, count: 81))
        Resampler.boxDownscale(image, by: 2, into: &small)
        #expect(small == GrayImage(width: 2, height: 1, pixels: [191, 25]))
        let big = GrayImage(width: 7, height: 6, pixels: (0..<42).map { UInt8($0 * 6) })
        Resampler.boxDownscale(big, by: 3, into: &small)
        // Block (0, 0) holds 0, 6, 12, 42, 48, 54, 84, 90, 96: mean 48; block (1, 0) is 18 higher.
        #expect(small.width == 2 && small.height == 2 && small.pixels[0] == 48 && small.pixels[1] == 66)
    }

    @Test("shrinking by half steps averages the area each pixel covers, edge pixels by half", arguments: [3, 5, 7, 9])
    func downscaleByHalves(halves: Int) {
        // Any pixels: each output pixel is the mean of its halves × halves block of half pixels.
        let width = 4 * halves + 1
        let height = 2 * halves
        var state: UInt32 = 7
        let image = GrayImage(
            width: width, height: height,
            pixels: (0..<width * height).map { _ in
                state = state &* 1_103_515_245 &+ 12345
                return UInt8(truncatingIfNeeded: state >> 16)
            })
        var small = GrayImage(width: 1, height: 1, pixels: [9])
        Resampler.boxDownscale(image, halves: halves, into: &small)
        #expect(small.width == 8 && small.height == 4)
        for y in 0..<small.height {
            for x in 0..<small.width {
                var sum = 0
                for v in y * halves..<(y + 1) * halves {
                    for u in x * halves..<(x + 1) * halves { sum += Int(image.pixels[(v / 2) * width + u / 2]) }
                }
                let expected = Double(sum) / Double(halves * halves)
                let value = Double(small.pixels[y * small.width + x])
                // Rounded down by the multiply-and-shift, as the integer shrink is.
                #expect(value <= expected + 0.01 && expected - value < 1.1, "(\(x), \(y)): \(value) for \(expected)")
            }
        }
        // Two levels stay two levels where an area is all one colour: a 3 × 3 checkerboard of 3-pixel squares.
        let squares = GrayImage(
            width: 9, height: 9, pixels: (0..<81).map { (($0 % 9) / 3 + ($0 / 9) / 3) % 2 == 0 ? 0 : 255 })
        Resampler.boxDownscale(squares, halves: 3, into: &small)
        #expect(small.width == 6 && small.height == 6)
        #expect(small.pixels[0] == 0 && small.pixels[1] == 0 && small.pixels[2] == 255 && small.pixels[3] == 255)
    }

    @Test("every code in SampleImages/ is found exactly as a full scan finds it, and cheaply unless inverted")
    func sampleImages() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../SampleImages").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
        #expect(names.count >= 20)
        let pass = FirstPass()
        var cheap = 0
        for name in names.sorted() {
            guard let image = try? PNGReader().read([UInt8](try Data(contentsOf: folder.appendingPathComponent(name))))
            else { continue }  // the truncated, empty and renamed files
            let full = try QRScanner().scan(image)
            let first = try pass.scan(image, with: QRScanner())
            #expect(Set(first.map(\.bytes)) == Set(full.map(\.bytes)), "\(name)")
            // Small images with more than two levels (the rotated RGB photo) get the full scan alone.
            if !full.isEmpty && !name.contains("inverted") && pass.lastPlan != .full {
                #expect(pass.lastCheapScanFound, "\(name): plan \(pass.lastPlan)")
                cheap += 1
            }
        }
        #expect(cheap >= 14)
    }

    @Test("small images with more than two levels get the full scan alone; large ones and two-level ones a cheap one")
    func levels() {
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 6)
        var grey = code
        for index in grey.pixels.indices where grey.pixels[index] == 255 { grey.pixels[index] = 200 + UInt8(index % 3) }
        #expect(ModuleSize.measure(code).twoLevel && !ModuleSize.measure(grey).twoLevel)
        #expect(FirstPass().plan(for: code) == FirstPass.Plan(factor: 3, density: 1))
        #expect(FirstPass().plan(for: grey) == .full)
        #expect(
            FirstPass(largePixels: grey.width * grey.height).plan(for: grey) == FirstPass.Plan(factor: 3, density: 1))
    }

    @Test("a small code nested in a large one is still found (the shrunk scan would see only the large one)")
    func nested() throws {
        let outer = PNGFixtures.codeImage("outer code, large modules, long enough text", moduleSize: 8)
        let inner = PNGFixtures.codeImage("inner", moduleSize: 2, margin: 2)
        var image = outer
        let left = (outer.width - inner.width) / 2
        for y in 0..<inner.height {
            for x in 0..<inner.width {
                // Printed in red: darker than white, lighter than black.
                image.pixels[(left + y) * outer.width + left + x] = inner.pixels[y * inner.width + x] == 0 ? 76 : 255
            }
        }
        let texts = try FirstPass().scan(image, with: QRScanner()).map(\.text)
        #expect(Set(texts) == ["outer code, large modules, long enough text", "inner"])
    }

    @Test(
        "a small black-and-white code printed inside a large one is found too: its short runs send the picture to the full scan",
        arguments: [2, 3])
    func nestedTwoLevel(innerModule: Int) throws {
        let outerText = "https://example.com/outer-code"
        let innerText = "Paul Hudson\npaul@example.com"
        let outer = try QRCodeImage.make(text: outerText, moduleSize: 16)
        let inner = PNGFixtures.codeImage(innerText, moduleSize: innerModule, margin: 2)
        var image = outer
        let left = (outer.width - inner.width) / 2
        for y in 0..<inner.height {
            for x in 0..<inner.width {
                image.pixels[(left + y) * outer.width + left + x] = inner.pixels[y * inner.width + x]
            }
        }
        let runs = ModuleSize.measure(image)
        #expect(runs.twoLevel && runs.finer && runs.module == 16)
        let pass = FirstPass()
        #expect(Set(try pass.scan(image, with: QRScanner()).map(\.text)) == [outerText, innerText])
        #expect(pass.lastPlan.factor > 1 && !pass.lastCheapScanFound)
        let decoder = QRDecoder()
        #expect(Set(try decoder.scan(image).map(\.text)) == [outerText, innerText])
        #expect(decoder.lastPassCount == 1)
        // The outer code alone has no short runs: its cheap scan is taken.
        #expect(!ModuleSize.measure(outer).finer)
        _ = try pass.scan(outer, with: QRScanner())
        #expect(pass.lastCheapScanFound)
    }

    @Test("a small black-and-white code beside a large one is still found (the shrink was measured on the large one)")
    func smallerBeside() throws {
        let big = PNGFixtures.codeImage("Big Code\nbig@example.com", moduleSize: 16)
        let small = PNGFixtures.codeImage("Small Code\nsmall@example.com", moduleSize: 2)
        var image = GrayImage(
            width: big.width + small.width, height: big.height,
            pixels: [UInt8](repeating: 255, count: (big.width + small.width) * big.height))
        for y in 0..<big.height {
            for x in 0..<big.width { image.pixels[y * image.width + x] = big.pixels[y * big.width + x] }
        }
        let top = big.height - small.height
        for y in 0..<small.height {
            for x in 0..<small.width {
                image.pixels[(top + y) * image.width + big.width + x] = small.pixels[y * small.width + x]
            }
        }
        let pass = FirstPass()
        let texts = try pass.scan(image, with: QRScanner()).map(\.text)
        #expect(pass.lastPlan.factor > 1 && !pass.lastCheapScanFound, "shrunk, then scanned in full for the ink left")
        #expect(Set(texts) == ["Big Code\nbig@example.com", "Small Code\nsmall@example.com"])
        // One code alone, with its quiet zone, is not scanned twice.
        _ = try pass.scan(big, with: QRScanner())
        #expect(pass.lastPlan.factor > 1 && pass.lastCheapScanFound)
    }

    @Test("corners of a shrunk scan are in the original image's coordinates", arguments: [5, 6, 7])
    func corners(module: Int) throws {
        let image = PNGFixtures.codeImage(Self.payload, moduleSize: module)
        let pass = FirstPass()
        let cheap = try #require(try pass.scan(image, with: QRScanner()).first)
        #expect(pass.lastPlan.factor == Double(module) / 2 && pass.lastCheapScanFound)
        let full = try #require(try QRScanner().scan(image).first)
        for (a, b) in zip(cheap.corners, full.corners) {
            #expect(abs(a.x - b.x) <= 3 && abs(a.y - b.y) <= 3, "\(a) vs \(b)")
        }
    }

    @Test("a code the cheap scan misses is found by the full scan in the same pass")
    func fallback() throws {
        // Light on dark: the cheap scan does not try the inverted image, the full scan does.
        let png = PNGFixtures.inverted(Self.payload, moduleSize: 6)
        let decoder = QRDecoder()
        #expect(try decoder.decode(png).map(\.text) == [Self.payload])
        #expect(decoder.lastPassCount == 1)
    }
    /// A camera-like frame: each code turned by `degrees` about its centre and laid, ink 40 on paper 200, at `centres`
    /// on a 1280 × 960 background of level 120 with noise (bilinear, as a lens would blur it).
    static func cameraFrame(_ codes: [(image: GrayImage, centre: (x: Double, y: Double))], degrees: Double)
        -> GrayImage
    {
        let width = 1280
        let height = 960
        var state: UInt32 = 2024
        var pixels = (0..<(width * height)).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(110 + Int(state >> 16) % 21)
        }
        let angle = degrees * Double.pi / 180
        let (cosine, sine) = (cos(angle), sin(angle))
        for (code, centre) in codes {
            let half = (x: Double(code.width) / 2, y: Double(code.height) / 2)
            let reach = Int(half.x + half.y) + 2
            for y in max(0, Int(centre.y) - reach)..<min(height, Int(centre.y) + reach) {
                for x in max(0, Int(centre.x) - reach)..<min(width, Int(centre.x) + reach) {
                    let (dx, dy) = (Double(x) + 0.5 - centre.x, Double(y) + 0.5 - centre.y)
                    let fx = cosine * dx + sine * dy + half.x - 0.5
                    let fy = -sine * dx + cosine * dy + half.y - 0.5
                    guard fx >= 0, fy >= 0, fx < Double(code.width - 1), fy < Double(code.height - 1) else { continue }
                    let (x0, y0) = (Int(fx), Int(fy))
                    let (wx, wy) = (fx - Double(x0), fy - Double(y0))
                    func at(_ x: Int, _ y: Int) -> Double { code.pixels[y * code.width + x] == 0 ? 40 : 200 }
                    let top = at(x0, y0) * (1 - wx) + at(x0 + 1, y0) * wx
                    let bottom = at(x0, y0 + 1) * (1 - wx) + at(x0 + 1, y0 + 1) * wx
                    pixels[y * width + x] = UInt8((top * (1 - wy) + bottom * wy).rounded())
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    @Test("a camera frame's code is read from an upright crop located on the shrunk frame, as the full scan reads it")
    func locatedFirst() throws {
        let frame = Self.cameraFrame(
            [(PNGFixtures.codeImage(Self.payload, moduleSize: 5), (x: 500, y: 400))], degrees: 13)
        let pass = FirstPass()
        let symbols = try pass.scan(frame, with: QRScanner(), locator: GeometryPass())
        #expect(symbols.map(\.text) == [Self.payload])
        #expect(pass.lastLocated && pass.lastPlan.factor == 2)
        // Corners in the frame's coordinates, where the full scan puts them.
        let full = try QRScanner().scan(frame)
        #expect(full.map(\.text) == [Self.payload])
        for corner in try #require(symbols.first).corners {
            #expect(
                try #require(full.first).corners.contains { abs($0.x - corner.x) <= 6 && abs($0.y - corner.y) <= 6 })
        }
        // Without a locator (the reduced picture of a large JPEG), the cheap scan as before.
        _ = try pass.scan(frame, with: QRScanner())
        #expect(!pass.lastLocated && pass.lastCheapScanFound)
    }

    @Test("codes the located crops did not read keep the frame for the scans: three codes, all three found")
    func locatedLeavesOthers() throws {
        let texts = ["First\nfirst@example.com", "Second\nsecond@example.com", "Third\nthird@example.com"]
        let frame = Self.cameraFrame(
            zip(texts, [(x: 250.0, y: 250.0), (x: 700, y: 300), (x: 450, y: 700)]).map {
                (PNGFixtures.codeImage($0.0, moduleSize: 5), $0.1)
            }, degrees: 8)
        let pass = FirstPass()
        let symbols = try pass.scan(frame, with: QRScanner(), locator: GeometryPass())
        #expect(Set(symbols.map(\.text)) == Set(texts))
    }
}
