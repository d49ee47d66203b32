import Foundation
import ProspectsTestSupport
import QRDecoding
import Testing

@Suite("PNGReader's classic path (CPNGFast): the simplified API's pixels, exactly")
struct PNGClassicPathTests {
    static let code = PNGFixtures.codeImage("Zoë Müller\nzoe@example.com", moduleSize: 3)
    static let simplified = PNGReader(allowsClassicPath: false)

    /// Palette and gray flavours of 8 bits or fewer, and 8-bit RGB: the classic path's flavours.
    static let classicFlavours = PNGFixtures.Flavour.allCases.filter { flavour in
        switch flavour {
        case .gray(let depth): depth <= 8
        case .rgb(let depth): depth == 8
        case .grayKeyedTransparent, .palette: true
        case .grayAlpha, .rgba: false
        }
    }

    @Test("palette, gray and RGB flavours take the classic path: byte-identical gray", arguments: classicFlavours)
    func identicalPixels(flavour: PNGFixtures.Flavour) throws {
        for gamma in [false, true] {
            let png = PNGFixtures.encode(Self.code, as: flavour, gamma: gamma)
            var image = GrayImage(width: 0, height: 0, pixels: [])
            let path = try PNGReader().read(png, into: &image)
            #expect(path == .classic, "\(flavour), gAMA: \(gamma)")
            #expect(image == (try Self.simplified.read(png)), "\(flavour), gAMA: \(gamma)")
        }
    }

    @Test(
        "every other flavour, and interlaced files, go to the simplified API", arguments: PNGFixtures.Flavour.allCases)
    func otherFlavours(flavour: PNGFixtures.Flavour) throws {
        var image = GrayImage(width: 0, height: 0, pixels: [])
        let interlaced = PNGFixtures.encode(Self.code, as: flavour, interlaced: true)
        #expect(try PNGReader().read(interlaced, into: &image) == .simplified)
        #expect(image == (try Self.simplified.read(interlaced)))
        if !Self.classicFlavours.contains(flavour) {
            let png = PNGFixtures.encode(Self.code, as: flavour)
            #expect(try PNGReader().read(png, into: &image) == .simplified)
        }
    }

    @Test(
        "committed qrencode and ImageMagick files",
        arguments: ["qrencode-palette-1bit.png", "palette-trns-gama.png", "qrencode-1px-module.png"])
    func committedFixtures(name: String) throws {
        let png = try fixture(name)
        var image = GrayImage(width: 0, height: 0, pixels: [])
        #expect(try PNGReader().read(png, into: &image) == .classic)
        #expect(image == (try Self.simplified.read(png)))
    }

    @Test("widths that are not a multiple of 8 pixels per byte, reusing one buffer")
    func oddWidths() throws {
        var image = GrayImage(width: 0, height: 0, pixels: [])
        for width in [1, 7, 9, 15, 17, 33] {
            let pixels = (0..<width * 5).map { $0 % 3 == 0 ? UInt8(0) : 255 }
            let source = GrayImage(width: width, height: 5, pixels: pixels)
            for flavour in Self.classicFlavours {
                let png = PNGFixtures.encode(source, as: flavour)
                #expect(try PNGReader().read(png, into: &image) == .classic)
                #expect(image == (try Self.simplified.read(png)), "\(flavour), width \(width)")
            }
        }
    }

    /// Every value of each channel, paired with every value of one other channel, and gray and near-gray pixels
    /// (libpng keeps R = G = B pixels as they are and weighs the others in linear light).
    static func rgbSpread(chunks: [PNGFixtures.ColourChunk]) -> [UInt8] {
        PNGFixtures.rgb8(width: 256, height: 772, chunks: chunks) { x, y in
            let (a, b, c) = (UInt8(x), UInt8(y % 256), UInt8((x * 7 + y * 13 + y / 256 * 101) % 256))
            switch y {
            case 0..<512: return (a, b, c)
            case 512..<768: return (b, c, a)
            case 768: return (a, a, a)
            case 769: return (a, a, a ^ 1)
            case 770: return (a, a ^ 1, a)
            default: return (a ^ 1, a, a)
            }
        }
    }

    /// Colour chunks the classic path converts: none, sRGB's gamma, sRGB, and colorants (libpng's weights come
    /// from cHRM when there is one).
    static let sRGBGammaChunks: [[PNGFixtures.ColourChunk]] = [
        [], [.gamma(45_455)], [.sRGB], [.gamma(45_455), .sRGBPrimaries], [.gamma(45_455), .adobePrimaries],
    ]

    @Test("8-bit RGB with an sRGB gamma: the classic path, byte-identical gray", arguments: sRGBGammaChunks)
    func rgbConversion(chunks: [PNGFixtures.ColourChunk]) throws {
        let png = Self.rgbSpread(chunks: chunks)
        var image = GrayImage(width: 0, height: 0, pixels: [])
        #expect(try PNGReader().read(png, into: &image) == .classic, "\(chunks)")
        let expected = try Self.simplified.read(png)
        #expect(image == expected, "\(chunks)")
        #expect(Set(expected.pixels).count > 200, "the picture spans the gray range")
    }

    @Test(
        "8-bit RGB with another gamma or a transparent colour goes to the simplified API",
        arguments: [[.gamma(100_000)], [.gamma(50_000)], [.transparent(red: 0, green: 0, blue: 0)]]
            as [[PNGFixtures.ColourChunk]])
    func rgbOtherwise(chunks: [PNGFixtures.ColourChunk]) throws {
        let png = Self.rgbSpread(chunks: chunks)
        var image = GrayImage(width: 0, height: 0, pixels: [])
        #expect(try PNGReader().read(png, into: &image) == .simplified, "\(chunks)")
    }

    /// All 2^24 RGB triples (a 4096 × 4096 picture per colour-chunk case): minutes in a debug build, so only with
    /// `PROSPECTS_PNG_EXHAUSTIVE=1`; the spread test above covers every channel value in the suite.
    @Test(
        "every RGB triple: the same gray on both paths",
        .enabled(if: ProcessInfo.processInfo.environment["PROSPECTS_PNG_EXHAUSTIVE"] == "1"))
    func everyTriple() throws {
        let cases: [[PNGFixtures.ColourChunk]] = [[], [.gamma(45_455)], [.sRGB], [.gamma(45_455), .adobePrimaries]]
        for chunks in cases {
            let png = PNGFixtures.rgb8(width: 4096, height: 4096, chunks: chunks) { x, y in
                (UInt8(y >> 4), UInt8((y & 15) << 4 | x >> 8), UInt8(x & 255))
            }
            var image = GrayImage(width: 0, height: 0, pixels: [])
            #expect(try PNGReader().read(png, into: &image) == .classic, "\(chunks)")
            let expected = try Self.simplified.read(png)
            let differing = zip(image.pixels, expected.pixels).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
            #expect(image.pixels.count == 1 << 24 && differing == 0, "\(chunks): \(differing) pixels differ")
        }
    }

    /// Samples that make every filter type matter: gradients, noise, and both ends of the range.
    static func busySamples(width: Int, height: Int, channels: Int) -> [UInt8] {
        var state: UInt32 = 12_345
        return (0..<(width * height * channels)).map { index in
            state = state &* 1_103_515_245 &+ 12_345
            let x = index / channels % width
            let y = index / channels / width
            switch (x / 16 + y / 16) % 3 {
            case 0: return UInt8(truncatingIfNeeded: x * 7 + y * 3 + index % channels * 50)
            case 1: return UInt8(truncatingIfNeeded: state >> 16)
            default: return (x + y) % 2 == 0 ? 0 : 255
            }
        }
    }

    @Test(
        "rows with every filter type, in many IDAT chunks (inflated whole by libdeflate): the simplified API's pixels",
        arguments: [1, 3], [[0, 1, 2, 3, 4], [4], [3, 1], [2]])
    func everyFilterType(channels: Int, filters: [UInt8]) throws {
        let (width, height) = (97, 61)
        let samples = Self.busySamples(width: width, height: height, channels: channels)
        for chunkSize in [100, 7_000, 100_000] {
            let png = PNGFixtures.filtered(
                width: width, height: height, channels: channels, samples: samples, filters: filters,
                chunkSize: chunkSize)
            var image = GrayImage(width: 0, height: 0, pixels: [])
            #expect(try PNGReader().read(png, into: &image) == .classic)
            #expect(image == (try Self.simplified.read(png)), "filters \(filters), chunks of \(chunkSize)")
        }
    }

    @Test("a bad CRC in a later IDAT, an unknown filter type, or bytes after the stream: as the simplified API says")
    func brokenWholeFiles() throws {
        let (width, height) = (40, 30)
        let samples = Self.busySamples(width: width, height: height, channels: 3)
        let png = PNGFixtures.filtered(
            width: width, height: height, channels: 3, samples: samples, filters: [4, 1], chunkSize: 500)
        // The third IDAT's last data byte changed, its CRC left.
        var badCRC = png
        var offset = 8
        var seen = 0
        while offset + 12 <= badCRC.count {
            let length = badCRC[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if Array(badCRC[offset + 4..<offset + 8]) == Array("IDAT".utf8) {
                seen += 1
                if seen == 3 {
                    badCRC[offset + 7 + length] ^= 0x40
                    break
                }
            }
            offset += 12 + length
        }
        #expect(seen == 3)
        let unknownFilter = PNGFixtures.filtered(
            width: width, height: height, channels: 3, samples: samples, filters: [0, 5], chunkSize: 500)
        let trailing = PNGFixtures.filtered(
            width: width, height: height, channels: 3, samples: samples, filters: [2], chunkSize: 500,
            trailing: [1, 2, 3])
        for file in [badCRC, unknownFilter, trailing] {
            let expected = Result { () throws(DecodeError) in try Self.simplified.read(file) }
            let actual = Result { () throws(DecodeError) in try PNGReader().read(file) }
            switch (expected, actual) {
            case (.success(let want), .success(let got)): #expect(got == want)
            case (.failure(let want), .failure(let got)): #expect(got == want)
            default: Issue.record("simplified \(expected), classic \(actual)")
            }
        }
    }

    @Test("broken files give the simplified API's errors")
    func errors() throws {
        let png = PNGFixtures.encode(Self.code, as: .palette(bitDepth: 1, transparency: true))
        #expect(throws: DecodeError.unreadableImage(reason: "IDAT: CRC error")) {
            try PNGReader().read(PNGFixtures.corruptingIDATChecksum(png))
        }
        #expect(throws: DecodeError.truncatedImage(format: .png)) {
            try PNGReader().read(Array(png.prefix(png.count / 2)))
        }
        let bomb = PNGFixtures.encode(GrayImage(width: 3, height: 1, pixels: [0, 255, 0]), as: .gray(bitDepth: 1))
        #expect(throws: DecodeError.imageTooLarge(width: 3, height: 1, limit: 2)) {
            try PNGReader(pixelLimit: 2).read(bomb)
        }
    }

    /// Every picture in `SampleImages/` (or, with `PROSPECTS_PNG_CORPUS`, every PNG of that folder, e.g. the
    /// benchmark corpus): the same pixels, or the same error, whichever path reads it.
    @Test("a whole folder of real files: same pixels or same error")
    func corpus() throws {
        let folder =
            ProcessInfo.processInfo.environment["PROSPECTS_PNG_CORPUS"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleImages").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
        #expect(names.count >= 20)
        var image = GrayImage(width: 0, height: 0, pixels: [])
        var classic = 0
        for name in names {
            let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)")))
            let fast = Result { () throws(DecodeError) in try PNGReader().read(png, into: &image) }
            let reference = Result { () throws(DecodeError) in try Self.simplified.read(png) }
            switch (fast, reference) {
            case (.success(let path), .success(let expected)):
                if path == .classic { classic += 1 }
                #expect(image == expected, "\(name)")
            case (.failure(let error), .failure(let expected)):
                #expect(error == expected, "\(name)")
            default:
                Issue.record("\(name): one path read it and the other did not")
            }
        }
        #expect(classic > 0, "qrencode's palette files take the classic path")
    }
}
