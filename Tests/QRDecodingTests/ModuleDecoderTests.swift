import ProspectsTestSupport
import Testing

@testable import QRDecoding

/// Our own decoder (ModuleDecoder and its parts) on real symbols: libqrencode's, and the Model 1 and Hanzi photos
/// zbar cannot read (Fixtures/SOURCES.md).
@Suite("Own QR decoder")
struct ModuleDecoderTests {
    /// `data` followed by its `count` Reed–Solomon check codewords (generator ∏ (x − αⁱ), i < count).
    static func encoded(_ data: [UInt8], count: Int) -> [UInt8] {
        var generator: [UInt8] = [1]
        for i in 0..<count {
            var next = [UInt8](repeating: 0, count: generator.count + 1)
            for (j, coefficient) in generator.enumerated() {
                next[j] ^= coefficient
                next[j + 1] ^= GaloisField.multiply(coefficient, GaloisField.power(i))
            }
            generator = next
        }
        var remainder = data + [UInt8](repeating: 0, count: count)
        for index in 0..<data.count where remainder[index] != 0 {
            let factor = remainder[index]
            for (j, coefficient) in generator.enumerated() {
                remainder[index + j] ^= GaloisField.multiply(factor, coefficient)
            }
        }
        return data + remainder.suffix(count)
    }

    @Test("Reed–Solomon: up to half the check codewords wrong are corrected, one more is refused")
    func reedSolomon() throws {
        var state: UInt32 = 2026
        func next() -> Int {
            state = state &* 1_103_515_245 &+ 12345
            return Int(state >> 16)
        }
        for (dataCount, checkCount) in [(19, 7), (16, 10), (13, 13), (9, 17), (116, 30), (15, 22)] {
            let data = (0..<dataCount).map { _ in UInt8(truncatingIfNeeded: next()) }
            let block = Self.encoded(data, count: checkCount)
            var clean = block
            #expect(try ReedSolomonDecoder.correct(&clean, correctionCount: checkCount) == 0)
            for errors in 1...(checkCount / 2) {
                var damaged = block
                var positions = Set<Int>()
                while positions.count < errors { positions.insert(next() % block.count) }
                for position in positions { damaged[position] ^= UInt8(1 + next() % 255) }
                #expect(try ReedSolomonDecoder.correct(&damaged, correctionCount: checkCount) == errors)
                #expect(damaged == block)
            }
            var tooMany = block
            for position in 0...(checkCount / 2) { tooMany[position * 2 % block.count] ^= 0x5A }
            #expect(throws: SymbolDecodeError.tooManyErrors) {
                try ReedSolomonDecoder.correct(&tooMany, correctionCount: checkCount)
            }
        }
    }

    /// The module grid of a code drawn at 1 pixel a module with no margin.
    static func grid(_ image: GrayImage) throws -> ModuleGrid {
        try #require(ModuleGrid(dimension: image.width, modules: image.pixels.map { $0 < 128 }))
    }

    @Test(
        "libqrencode's Model 2 symbols decode to zbar's bytes, mirrored too",
        arguments: [
            Array("Paul Hudson\npaul@hackingwithswift.com".utf8),
            Array("李小龙\nbruce@example.cn".utf8),
            [0x5A, 0x6F, 0xEB, 0x0A, 0x7A, 0x6F, 0x65, 0x40, 0x65, 0x78, 0x2E, 0x64, 0x65],  // Latin-1
            Array(String(repeating: "BEGIN:VCARD VERSION:3.0 N:Müller;Zoë TEL:+49 30 1234567 ", count: 12).utf8),
        ])
    func matchesZbar(payload: [UInt8]) throws {
        let expected = try QRScanner().scan(PNGFixtures.codeImage(bytes: payload, moduleSize: 4))
        #expect(expected.map(\.bytes) == [payload])
        let grid = try Self.grid(QRCodeImage.make(bytes: payload, moduleSize: 1, margin: 0))
        #expect(try ModuleDecoder.payload(grid) == payload)
        #expect(try ModuleDecoder.payload(grid.transposed()) == payload)
    }

    @Test("an ECI-declared segment comes out as zbar gives it: UTF-8")
    func eci() throws {
        let latin1: [UInt8] = [0x4A, 0xFC, 0x72, 0x67, 0x65, 0x6E]  // Jürgen in ISO-8859-1
        let image = try QRCodeImage.make(bytes: latin1, eci: 3, moduleSize: 1, margin: 0)
        let zbar = try QRScanner().scan(image.upscaled(by: 4))
        #expect(try ModuleDecoder.payload(Self.grid(image)) == Array("Jürgen".utf8))
        #expect(zbar.map(\.bytes) == [Array("Jürgen".utf8)])
    }

    @Test("a damaged symbol: a few modules flipped are corrected, a blank grid is refused with a reason")
    func damage() throws {
        let payload = Array("Zoë Müller\nzoe@example.com".utf8)
        var modules = try Self.grid(QRCodeImage.make(bytes: payload, moduleSize: 1, margin: 0)).modules
        let dimension = Int(Double(modules.count).squareRoot())
        for (x, y) in [(12, 12), (20, 14), (15, 22), (dimension - 3, dimension - 2)] {
            modules[y * dimension + x].toggle()
        }
        let damaged = try #require(ModuleGrid(dimension: dimension, modules: modules))
        #expect(try ModuleDecoder.payload(damaged) == payload)
        let blank = try #require(ModuleGrid(dimension: 25, modules: .init(repeating: false, count: 625)))
        #expect(throws: SymbolDecodeError.unreadableFormat) { try ModuleDecoder.payload(blank) }
        let odd = try #require(ModuleGrid(dimension: 22, modules: .init(repeating: true, count: 484)))
        #expect(throws: SymbolDecodeError.badDimension(22)) { try ModuleDecoder.payload(odd) }
    }

    @Test(
        "real QR Model 1 and Hanzi codes: zbar finds nothing, the own-decoder pass reads them",
        arguments: [
            ("model1-issue-940.png", "N023X-3431800-V034PG03X-3436010-A1125032918310706"),
            ("model1-qr-model-1.png", "QR Code Model 1 "),
            ("hanzi-33.png", "\u{01}\u{10}AD:SUB:阿;;"),
        ])
    func realCodes(file: String, text: String) throws {
        let png = try fixture(file)
        let zbarOnly = QRDecoder(pixelLimit: 1_000_000, passes: QRDecoder.defaultPasses.filter { $0 != .ownDecoder })
        #expect(try zbarOnly.decode(png) == [])
        let decoder = QRDecoder()
        let symbols = try decoder.decode(png)
        #expect(symbols.map(\.text) == [text])
        #expect(symbols.map(\.pass) == ["own-decoder"])
        #expect(symbols.first?.corners.count == 4)
    }

    @Test("format information: every one of the 32 codes of each model reads back from a grid")
    func formatInformation() throws {
        for (model, xorMask) in [(FormatInformation.Model.two, 0x5412), (.one, 0x2825)] {
            for data in 0..<32 {
                let bits = FormatInformation.code(data) ^ xorMask
                var modules = [Bool](repeating: false, count: 21 * 21)
                let first: [(Int, Int)] =
                    (0..<6).map { ($0, 8) } + [(7, 8), (8, 8), (8, 7)] + (0..<6).reversed().map { (8, $0) }
                for (index, (x, y)) in first.enumerated() {
                    modules[y * 21 + x] = bits >> (14 - index) & 1 == 1
                }
                let grid = try #require(ModuleGrid(dimension: 21, modules: modules))
                let best = try #require(FormatInformation.candidates(grid).first)
                #expect(best.model == model && best.mask == data & 7 && best.distance == 0)
            }
        }
    }
}
