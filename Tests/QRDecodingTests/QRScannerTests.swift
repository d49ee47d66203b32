import ProspectsTestSupport
import Testing

@testable import QRDecoding

@Suite("QRScanner: zbar on gray images")
struct QRScannerTests {
    @Test("UTF-8 names come back byte-exact (zbar's charset guessing is off)", arguments: contactPayloads)
    func utf8ByteExact(payload: String) throws {
        let symbols = try QRScanner().scan(PNGFixtures.codeImage(payload))
        #expect(symbols.map(\.bytes) == [Array(payload.utf8)])
        #expect(symbols.map(\.text) == [payload])
        #expect(symbols.map(\.encoding) == ["UTF-8"])
    }

    @Test("a Shift_JIS payload (no ECI) is read as Shift_JIS")
    func shiftJIS() throws {
        let symbols = try QRScanner().scan(PNGFixtures.codeImage(bytes: PayloadTextTests.yamadaShiftJIS))
        #expect(symbols.map(\.bytes) == [PayloadTextTests.yamadaShiftJIS])
        #expect(symbols.map(\.text) == ["山田太郎\nyamada@example.jp"])
        #expect(symbols.map(\.encoding) == ["Shift_JIS"])
    }

    @Test("a BOM written into the code is stripped")
    func byteOrderMark() throws {
        let symbols = try QRScanner().scan(PNGFixtures.codeImage(bytes: [0xEF, 0xBB, 0xBF] + Array("Zoë".utf8)))
        #expect(symbols.map(\.text) == ["Zoë"])
        #expect(symbols.map(\.bytes) == [Array("Zoë".utf8)])
    }

    @Test("a payload with a NUL byte is not cut at it")
    func nulByte() throws {
        let payload: [UInt8] = Array("before".utf8) + [0] + Array("after".utf8)
        let symbols = try QRScanner().scan(PNGFixtures.codeImage(bytes: payload))
        #expect(symbols.map(\.bytes) == [payload])
    }

    @Test("corners outline the code and quality is reported")
    func cornersAndQuality() throws {
        let moduleSize = 4
        let margin = 4
        let image = PNGFixtures.codeImage(
            "Paul Hudson\npaul@hackingwithswift.com", moduleSize: moduleSize, margin: margin)
        let symbol = try #require(try QRScanner().scan(image).first)
        #expect(symbol.corners.count == 4)
        let low = margin * moduleSize - 2
        let high = image.width - margin * moduleSize + 2
        for corner in symbol.corners {
            #expect((low...high).contains(corner.x) && (low...high).contains(corner.y), "\(corner)")
        }
        #expect(symbol.quality > 0)
    }

    @Test("one scanner, many images: results never leak from one scan into the next")
    func reuse() throws {
        let scanner = QRScanner()
        for payload in contactPayloads + contactPayloads.reversed() {
            #expect(try scanner.scan(PNGFixtures.codeImage(payload)).map(\.text) == [payload])
            #expect(
                try scanner.scan(GrayImage(width: 64, height: 64, pixels: .init(repeating: 255, count: 4096))) == [])
        }
    }

    @Test("the zbar scanner is replaced after a thousand codes, and scans read the same across the change")
    func scannerIsReplacedBeforeZbarsRecyclingGrows() throws {
        let scanner = QRScanner()
        let code = PNGFixtures.codeImage("Paul Hudson\npaul@hackingwithswift.com")
        let blank = GrayImage(width: 64, height: 64, pixels: [UInt8](repeating: 255, count: 64 * 64))
        let expected = try scanner.scan(code)
        #expect(expected.count == 1)
        // Scans that find nothing do not wear the scanner out; decoded codes do.
        for _ in 0..<50 { #expect(try scanner.scan(blank).isEmpty) }
        for _ in 1..<QRScanner.codesPerScanner { #expect(try scanner.scan(code) == expected) }
        #expect(scanner.scannerGeneration == 1)
        // The next scan starts on a new zbar scanner: the settings are applied again, at another density too.
        #expect(try scanner.scan(code) == expected)
        #expect(scanner.scannerGeneration == 2)
        #expect(try scanner.scan(code, density: 2, testInverted: false) { $0 } == expected)
        #expect(try scanner.scan(code) == expected)
        let light = PNGFixtures.codeImage("Zoë Müller\nzoe@example.com")
        let inverted = GrayImage(width: light.width, height: light.height, pixels: light.pixels.map { 255 - $0 })
        #expect(try scanner.scan(inverted).map(\.text) == ["Zoë Müller\nzoe@example.com"], "inverted codes are tried")
    }

    @Test("an empty image has no code; a pixel buffer of the wrong size is refused")
    func degenerateImages() throws {
        #expect(try QRScanner().scan(GrayImage(width: 0, height: 0, pixels: [])) == [])
        var image = PNGFixtures.codeImage("x")
        image.pixels.removeLast()
        #expect(throws: DecodeError.self) { try QRScanner().scan(image) }
    }
}

@Suite("ECI: zbar converts ECI-tagged segments to UTF-8 even in binary mode")
struct ECITests {
    @Test("Shift_JIS under ECI 20 comes back as UTF-8 text, not as Shift_JIS bytes")
    func shiftJISWithECI() throws {
        let image = try QRCodeImage.make(bytes: PayloadTextTests.yamadaShiftJIS, eci: 20, moduleSize: 4)
        let symbols = try QRScanner().scan(image)
        #expect(symbols.map(\.text) == ["山田太郎\nyamada@example.jp"])
        #expect(symbols.map(\.bytes) == [Array("山田太郎\nyamada@example.jp".utf8)])
        #expect(symbols.map(\.encoding) == ["UTF-8"])
    }

    @Test("Latin-1 under ECI 3 and UTF-8 under ECI 26 both arrive as UTF-8")
    func latin1AndUTF8WithECI() throws {
        let jose: [UInt8] = [0x4A, 0x6F, 0x73, 0xE9]
        #expect(try QRScanner().scan(QRCodeImage.make(bytes: jose, eci: 3, moduleSize: 4)).map(\.text) == ["José"])
        let jurgen = Array("Jürgen Müller".utf8)
        #expect(try QRScanner().scan(QRCodeImage.make(bytes: jurgen, eci: 26, moduleSize: 4)).map(\.bytes) == [jurgen])
        // Without an ECI the same Latin-1 bytes stay raw and PayloadText picks the charset.
        let raw = try QRScanner().scan(QRCodeImage.make(bytes: jose, moduleSize: 4))
        #expect(raw.map(\.bytes) == [jose])
        #expect(raw.map(\.encoding) == ["ISO-8859-1"])
    }
}

@Suite("Threads: one scanner per thread")
struct ThreadTests {
    @Test("two threads, each with its own decoder, agree with one thread")
    func twoThreads() async throws {
        QRScanner.warmUp()
        let pngs = (contactPayloads + contactPayloads).map { PNGFixtures.contactCode($0) }
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<2 {
                group.addTask {
                    let decoder = QRDecoder()
                    return try pngs.flatMap { try decoder.decode($0).map(\.text) }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == [contactPayloads + contactPayloads, contactPayloads + contactPayloads])
    }
}
