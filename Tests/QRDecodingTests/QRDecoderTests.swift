import ProspectsTestSupport
import QRDecoding
import Testing

@Suite("QRDecoder: PNG bytes to symbols, pass by pass")
struct QRDecoderTests {
    @Test("UTF-8 names byte-exact from PNG files", arguments: contactPayloads)
    func names(payload: String) throws {
        let decoder = QRDecoder()
        let symbols = try decoder.decode(PNGFixtures.contactCode(payload))
        #expect(symbols.map(\.bytes) == [Array(payload.utf8)])
        #expect(symbols.map(\.text) == [payload])
        #expect(decoder.lastPassCount == 1)
    }

    @Test("a light-on-dark code")
    func inverted() throws {
        let decoder = QRDecoder()
        #expect(
            try decoder.decode(PNGFixtures.inverted("Zoë Müller\nzoe@example.com")).map(\.text) == [
                "Zoë Müller\nzoe@example.com"
            ])
        #expect(decoder.lastPassCount == 1)
    }

    @Test("two codes in one image are two symbols")
    func twoCodes() throws {
        let png = PNGFixtures.twoCodes("Jürgen Müller\njuergen@example.de", "李小龙\nbruce@example.cn")
        let symbols = try QRDecoder().decode(png)
        #expect(Set(symbols.map(\.text)) == ["Jürgen Müller\njuergen@example.de", "李小龙\nbruce@example.cn"])
        #expect(symbols.count == 2)
        // The first code is on the left half, the second on the right.
        let left = try #require(symbols.first { $0.text.hasPrefix("Jürgen") })
        let right = try #require(symbols.first { $0.text.hasPrefix("李") })
        #expect(left.corners.map(\.x).max()! < right.corners.map(\.x).min()!)
    }

    @Test("a code at 1 pixel per module is found by the 2× pass, with corners in original coordinates")
    func onePixelModules() throws {
        let payload = "Zoë Müller\nzoe@example.com"
        let tiny = PNGFixtures.codeImage(payload, moduleSize: 1, margin: 4)
        #expect(try QRScanner().scan(tiny) == [])  // the reason the pass exists
        let decoder = QRDecoder()
        let symbols = try decoder.decode(PNGFixtures.png(tiny))
        #expect(symbols.map(\.text) == [payload])
        #expect(decoder.lastPassCount == 2)
        for corner in try #require(symbols.first).corners {
            #expect((0...tiny.width).contains(corner.x) && (0...tiny.height).contains(corner.y), "\(corner)")
        }
        // qrencode's own 1-pixel output, a real file.
        #expect(try decoder.decode(try fixture("qrencode-1px-module.png")).map(\.text) == [payload])
        #expect(decoder.lastPassCount == 2)
    }

    @Test("a clean image costs exactly one pass, also after a two-pass decode")
    func passCount() throws {
        let decoder = QRDecoder()
        _ = try decoder.decode(PNGFixtures.png(PNGFixtures.codeImage("x", moduleSize: 1)))
        #expect(decoder.lastPassCount == 2)
        _ = try decoder.decode(PNGFixtures.contactCode("x"))
        #expect(decoder.lastPassCount == 1)
    }

    @Test("no code: [] after every pass; large images skip the upscales")
    func noCode() throws {
        let decoder = QRDecoder()
        let blank = GrayImage(width: 200, height: 100, pixels: .init(repeating: 255, count: 20_000))
        #expect(try decoder.decode(PNGFixtures.png(blank)) == [])
        let wholePicturePasses = QRDecoder.defaultPasses.filter { $0.appliesTo != .reduced }
        #expect(decoder.lastPassCount == wholePicturePasses.count)
        #expect(decoder.lastPass == nil)
        let big = GrayImage(width: 1100, height: 1000, pixels: .init(repeating: 200, count: 1_100_000))
        #expect(try decoder.decode(PNGFixtures.png(big)) == [])
        #expect(decoder.lastPassCount == wholePicturePasses.count - 2)  // neither 2× nor 3× bilinear
    }

    @Test("custom passes run in order")
    func customPasses() throws {
        let decoder = QRDecoder(pixelLimit: 1_000_000, passes: [.plainScan])
        #expect(try decoder.decode(PNGFixtures.png(PNGFixtures.codeImage("x", moduleSize: 1))) == [])
        #expect(decoder.lastPassCount == 1)
        let upscaleFirst = QRDecoder(pixelLimit: 1_000_000, passes: [.upscaled(factor: 3, maxSourcePixels: 10_000)])
        #expect(
            try upscaleFirst.decode(PNGFixtures.png(PNGFixtures.codeImage("x", moduleSize: 1))).map(\.text) == ["x"])
    }

    @Test("errors carry the reader's reason; lastPassCount is 0")
    func errors() throws {
        let decoder = QRDecoder(pixelLimit: 1_000)
        #expect(throws: DecodeError.imageTooLarge(width: 30_000, height: 30_000, limit: 1_000)) {
            try decoder.decode(PNGFixtures.hugeDimensionsHeader())
        }
        #expect(decoder.lastPassCount == 0)
        // Told by content: text is named as text, not as a broken PNG.
        #expect(throws: DecodeError.unsupportedFormat(.text)) {
            try decoder.decode(Array("Paul Hudson\npaul@hackingwithswift.com".utf8))
        }
        #expect(throws: DecodeError.unsupportedFormat(.empty)) { try decoder.decode([]) }
        #expect(throws: DecodeError.unreadableImage(reason: "IDAT: CRC error")) {
            try QRDecoder().decode(PNGFixtures.corruptingIDATChecksum(PNGFixtures.contactCode("x")))
        }
        // The decoder is still usable after errors.
        #expect(try QRDecoder().decode(PNGFixtures.contactCode("ok")).map(\.text) == ["ok"])
    }

    @Test("one decoder over a mixed stream of sizes and flavours")
    func mixedStream() throws {
        let decoder = QRDecoder()
        for (index, payload) in (contactPayloads + contactPayloads).enumerated() {
            let flavour = PNGFixtures.Flavour.allCases[index * 3 % PNGFixtures.Flavour.allCases.count]
            let image = PNGFixtures.codeImage(payload, moduleSize: 2 + index % 4)
            #expect(try decoder.decode(PNGFixtures.encode(image, as: flavour)).map(\.text) == [payload], "\(flavour)")
        }
    }
}
