import Foundation
import ProspectsTestSupport
import QRDecoding
import Testing

@Suite("PNGReader: every PNG flavour, the pixel limit, broken files")
struct PNGReaderTests {
    static let payload = "Zoë Müller\nzoe@example.com"
    static let code = PNGFixtures.codeImage(payload, moduleSize: 3)

    @Test("every colour type and bit depth decodes to gray and scans", arguments: PNGFixtures.Flavour.allCases)
    func everyFlavour(flavour: PNGFixtures.Flavour) throws {
        for interlaced in [false, true] {
            let png = PNGFixtures.encode(Self.code, as: flavour, interlaced: interlaced, gamma: interlaced)
            let image = try PNGReader().read(png)
            #expect(image.width == Self.code.width && image.height == Self.code.height)
            // The margin is light in every flavour, whether drawn light or transparent over black.
            #expect(image.pixels[0] > 190, "\(flavour), interlaced: \(interlaced)")
            #expect(try decodedTexts(png) == [Self.payload], "\(flavour), interlaced: \(interlaced)")
        }
    }

    @Test(
        "files made by qrencode and ImageMagick",
        arguments: [
            "qrencode-palette-1bit.png", "interlaced-rgb8.png", "interlaced-gray16.png", "palette-trns-gama.png",
        ])
    func committedFixtures(name: String) throws {
        let decoder = QRDecoder()
        let symbols = try decoder.decode(try fixture(name))
        #expect(symbols.map(\.bytes) == [Array(Self.payload.utf8)])
        #expect(decoder.lastPassCount == 1)
    }

    @Test("transparent pixels become white even over a reused buffer full of black")
    func alphaOnWhite() throws {
        let png = PNGFixtures.encode(Self.code, as: .rgba(bitDepth: 8))
        var image = GrayImage(
            width: Self.code.width, height: Self.code.height, pixels: .init(repeating: 0, count: Self.code.pixels.count)
        )
        try PNGReader().read(png, into: &image)
        #expect(image.pixels[0] == 255)  // fully transparent black → white
        #expect(image.pixels[1] > 190)  // 80 % transparent black → light
        #expect(image.pixels.min() == 0)  // the dark modules are still black
    }

    @Test("a reused buffer gives the same image as a fresh read, growing and shrinking")
    func bufferReuse() throws {
        let reader = PNGReader()
        var image = GrayImage(width: 0, height: 0, pixels: [])
        for text in ["a", String(repeating: "long payload ", count: 20), "b"] {
            let png = PNGFixtures.contactCode(text)
            try reader.read(png, into: &image)
            #expect(image == (try reader.read(png)))
        }
        #expect(throws: DecodeError.self) { try reader.read(Array("not a png".utf8), into: &image) }
        #expect(image.width == 0 && image.pixels.isEmpty)
        let png = PNGFixtures.contactCode("after an error")
        try reader.read(png, into: &image)
        #expect(image == (try reader.read(png)))
    }

    @Test("a 60-byte header claiming 30000 × 30000 is refused at once, before allocating")
    func decompressionBomb() throws {
        let bomb = PNGFixtures.hugeDimensionsHeader(width: 30_000, height: 30_000)
        #expect(bomb.count < 70)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: DecodeError.imageTooLarge(width: 30_000, height: 30_000, limit: 50_000_000)) {
                try PNGReader().read(bomb)
            }
        }
        // Decoding the bomb takes seconds and gigabytes; a refusal from the header, milliseconds even under a sanitizer.
        #expect(elapsed < .seconds(2))
        #expect(throws: DecodeError.imageTooLarge(width: 30_000, height: 30_000, limit: 50_000_000)) {
            try QRDecoder().decode(bomb)
        }
    }

    @Test("the limit is width × height, inclusive")
    func customLimit() throws {
        let png = PNGFixtures.contactCode(Self.payload)
        let side = try PNGReader().read(png).width
        #expect(throws: DecodeError.imageTooLarge(width: side, height: side, limit: side * side - 1)) {
            try PNGReader(pixelLimit: side * side - 1).read(png)
        }
        #expect(try PNGReader(pixelLimit: side * side).read(png).width == side)
    }

    @Test("zero bytes")
    func empty() {
        #expect(throws: DecodeError.unreadableImage(reason: "empty file")) { try PNGReader().read([]) }
    }

    @Test("a text file renamed .png")
    func notAPNG() {
        #expect(throws: DecodeError.unreadableImage(reason: "Not a PNG file")) {
            try PNGReader().read(Array("Zoë Müller\nzoe@example.com\n".utf8))
        }
        #expect(throws: DecodeError.unreadableImage(reason: "Not a PNG file"), "shorter than a PNG signature") {
            try PNGReader().read(Array("hello".utf8))
        }
    }

    @Test("a file cut anywhere before the end of its image data is refused as cut short")
    func truncated() throws {
        let png = PNGFixtures.contactCode(Self.payload)
        let iendStart = png.count - 12
        for cut in [1, 4, 8, 20, 33, 45, 60, png.count / 2, iendStart - 4, iendStart - 1] {
            #expect(throws: DecodeError.truncatedImage(format: .png), "cut at \(cut)") {
                try PNGReader().read(Array(png.prefix(cut)))
            }
        }
    }

    @Test("a missing or cut IEND is tolerated: libpng has every pixel by then")
    func missingIEND() throws {
        let png = PNGFixtures.contactCode(Self.payload)
        let full = try PNGReader().read(png)
        for cut in [png.count - 12, png.count - 4, png.count - 1] {
            #expect(try PNGReader().read(Array(png.prefix(cut))) == full, "cut at \(cut)")
        }
    }

    @Test("a wrong IDAT checksum")
    func badCRC() {
        let png = PNGFixtures.corruptingIDATChecksum(PNGFixtures.contactCode(Self.payload))
        #expect(throws: DecodeError.unreadableImage(reason: "IDAT: CRC error")) { try PNGReader().read(png) }
    }

    @Test("corrupted IDAT data fails in zlib before the CRC is checked")
    func corruptData() {
        let png = PNGFixtures.corruptingIDATData(PNGFixtures.contactCode(Self.payload))
        let error = #expect(throws: DecodeError.self) { try PNGReader().read(png) }
        if case .unreadableImage(_, let reason) = error {
            #expect(reason.hasPrefix("IDAT: "))
        } else {
            Issue.record("expected .unreadable, got \(String(describing: error))")
        }
    }

    @Test("a wrong Adler-32 under intact chunk CRCs: the classic path reads the pixels, the simplified API refuses")
    func badAdler32() throws {
        let good = PNGFixtures.contactCode(Self.payload)
        let png = PNGFixtures.corruptingAdler32(good)
        #expect(png != good)
        // The classic path skips zlib's check of the uncompressed data (the CRCs cover it compressed).
        #expect(try PNGReader().read(png) == (try PNGReader().read(good)))
        #expect(throws: DecodeError.self) { try PNGReader(allowsClassicPath: false).read(png) }
    }

    @Test("bytes after IEND are ignored")
    func trailingGarbage() throws {
        let png = PNGFixtures.contactCode(Self.payload)
        let garbage = Array("trailing garbage, e.g. a second file concatenated by a careless upload".utf8)
        #expect(try PNGReader().read(png + garbage) == (try PNGReader().read(png)))
        #expect(try decodedTexts(png + garbage + [0, 0, 0, 0]) == [Self.payload])
        let raw = PNGFixtures.encode(Self.code, as: .palette(bitDepth: 1, transparency: true), trailing: garbage)
        #expect(try decodedTexts(raw) == [Self.payload])
    }
}
