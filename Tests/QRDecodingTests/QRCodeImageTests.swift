import ProspectsTestSupport
import QRDecoding
import Testing

@Suite("QRCodeImage and PNGWriter: one's own card, written and read back")
struct QRCodeImageTests {
    @Test("text → QR → PNG → decode is byte-exact, non-ASCII included", arguments: contactPayloads)
    func roundTrip(payload: String) throws {
        let png = try PNGWriter.encode(try QRCodeImage.make(text: payload))
        let symbols = try QRDecoder().decode(png)
        #expect(symbols.map(\.bytes) == [Array(payload.utf8)])
        #expect(symbols.map(\.text) == [payload])
    }

    @Test("geometry: modules × moduleSize plus the quiet zone, black on white")
    func geometry() throws {
        let image = try QRCodeImage.make(text: "Paul Hudson\npaul@hackingwithswift.com", moduleSize: 5, margin: 2)
        #expect(image.width == image.height)
        #expect(image.width % 5 == 0)
        let modules = image.width / 5 - 4
        #expect((modules - 17) % 4 == 0)  // 21, 25, 29…: a valid QR version
        #expect(Set(image.pixels) == [0, 255])
        #expect(image.pixels[0] == 255)  // quiet zone
        #expect(image.pixels[2 * 5 * image.width + 2 * 5] == 0)  // the finder pattern's corner
    }

    @Test("PNGWriter output reads back to the very same pixels")
    func writerLossless() throws {
        let image = GrayImage(width: 7, height: 3, pixels: (0..<21).map { UInt8($0 * 12) })
        let png = try PNGWriter.encode(image)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try PNGReader().read(png) == image)
    }

    @Test("what cannot be encoded says why")
    func encodeErrors() {
        #expect(throws: EncodeError.self) { try QRCodeImage.make(text: "") }
        #expect(throws: EncodeError.self) { try QRCodeImage.make(text: "x", moduleSize: 0) }
        let tooLong = String(repeating: "x", count: 3_000)  // version 40-M holds 2,331 bytes
        #expect(throws: EncodeError(reason: "payload of 3000 bytes is too large for a QR code")) {
            try QRCodeImage.make(text: tooLong)
        }
        #expect(throws: EncodeError.self) { try PNGWriter.encode(GrayImage(width: 0, height: 0, pixels: [])) }
    }
}
