import Foundation
import ProspectsTestSupport
import Testing

@testable import QRDecoding

@Suite("Every picture a phone makes: JPEG, HEIC, AVIF and WebP read by content, others named")
struct PictureFormatTests {
    static let payload = "Zoë Müller\nzoe@example.com"
    static let png = PNGFixtures.contactCode(payload, moduleSize: 6)

    @Test(
        "each format decodes to the payload of the PNG it was made from", arguments: PictureFixtures.Conversion.readable
    )
    func samePayloadAsThePNG(_ conversion: PictureFixtures.Conversion) throws {
        let bytes = try PictureFixtures.convert(Self.png, conversion)
        let decoder = QRDecoder()
        #expect(try decoder.decode(bytes).map(\.text) == [Self.payload])
        let expected: ImageFormat =
            switch conversion.fileExtension {
            case "jpg": .jpeg
            case "webp": .webp
            case "avif": .avif
            default: .heif
            }
        #expect(decoder.lastPicture?.format == expected)
        #expect(ImageCompleteness.of(bytes) == .complete)
    }

    @Test(
        "GIF, TIFF and BMP get an error naming what they are",
        arguments: [
            (PictureFixtures.Conversion.gif, UnsupportedFormat.gif), (.tiff, .tiff), (.bmp, .bmp),
        ])
    func otherPictureFormats(_ conversion: PictureFixtures.Conversion, _ format: UnsupportedFormat) throws {
        let bytes = try PictureFixtures.convert(Self.png, conversion)
        #expect(throws: DecodeError.unsupportedFormat(format)) { try QRDecoder().decode(bytes) }
        #expect(ImageCompleteness.of(bytes) == .notAPicture(format))
    }

    @Test("text, PDF, video, empty and unknown bytes are named too")
    func otherFiles() {
        let cases: [([UInt8], UnsupportedFormat)] = [
            (Array("Paul Hudson\npaul@hackingwithswift.com\n".utf8), .text),
            (Array("Zoë, 李小龙 — notes\r\n".utf8), .text),
            (Array("%PDF-1.7\n%\u{E2}\u{E3}".utf8), .pdf),
            ([0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8), .video),
            (Array("RIFF\u{10}\0\0\0WAVEfmt ".utf8), .other),
            ([], .empty),
            ([0x00, 0x01, 0x02, 0xFE, 0x80, 0x00], .other),
        ]
        for (bytes, format) in cases {
            #expect(throws: DecodeError.unsupportedFormat(format)) { try QRDecoder().decode(bytes) }
        }
        #expect(UnsupportedFormat.gif.description == "a GIF image")
    }

    @Test("a file cut short is refused as truncated, in every format", arguments: PictureFixtures.Conversion.readable)
    func truncated(_ conversion: PictureFixtures.Conversion) throws {
        let bytes = try PictureFixtures.convert(Self.png, conversion)
        let decoder = QRDecoder()
        guard case .success(let format) = ImageFormat.of(bytes) else {
            Issue.record("\(conversion) is not told by its bytes")
            return
        }
        for cut in [bytes.count / 2, bytes.count - 1, 20, 6, 3]
        where cut > 4 || conversion.fileExtension != "heic" && conversion != .avif {
            // Before its brands, an AVIF cannot be told from a HEIC.
            let named = cut < 12 && format == .avif ? .heif : format
            #expect(throws: DecodeError.truncatedImage(format: named), "cut at \(cut)") {
                try decoder.decode(Array(bytes.prefix(cut)))
            }
            #expect(ImageCompleteness.of(Array(bytes.prefix(cut))) == .incomplete, "cut at \(cut)")
        }
        // The same decoder reads a whole file after the errors.
        #expect(try decoder.decode(bytes).map(\.text) == [Self.payload])
    }

    @Test("a header claiming a huge image is refused before decoding, in every format")
    func bombs() throws {
        let decoder = QRDecoder()
        let limit = PNGReader.defaultPixelLimit
        let jpeg = try Self.patchingJPEGSize(PictureFixtures.convert(Self.png, .jpegProgressive), to: 30_000)
        #expect(throws: DecodeError.imageTooLarge(width: 30_000, height: 30_000, limit: limit)) {
            try decoder.decode(jpeg)
        }
        let webp = try Self.patchingWebPLosslessSize(PictureFixtures.convert(Self.png, .webpLossless))
        #expect(throws: DecodeError.imageTooLarge(width: 16_384, height: 16_384, limit: limit)) {
            try decoder.decode(webp)
        }
        for conversion in [PictureFixtures.Conversion.heic, .avif] {
            let heif = try Self.patchingISPE(PictureFixtures.convert(Self.png, conversion), to: 30_000)
            #expect(throws: DecodeError.imageTooLarge(width: 30_000, height: 30_000, limit: limit), "\(conversion)") {
                try decoder.decode(heif)
            }
        }
        #expect(throws: DecodeError.imageTooLarge(width: 30_000, height: 30_000, limit: limit)) {
            try decoder.decode(PNGFixtures.hugeDimensionsHeader())
        }
    }

    @Test("EXIF orientation turns the corners to the upright picture; a mirrored picture is read")
    func orientation() throws {
        // A landscape 600 × 300 picture with the code at its left end.
        let code = PNGFixtures.codeImage(Self.payload, moduleSize: 6)
        var pixels = [UInt8](repeating: 255, count: 600 * 300)
        for y in 0..<code.height {
            for x in 0..<code.width { pixels[y * 600 + x] = code.pixels[y * code.width + x] }
        }
        let stored = try PictureFixtures.convert(
            PNGFixtures.png(GrayImage(width: 600, height: 300, pixels: pixels)), .jpegBaseline)
        let decoder = QRDecoder()

        let plain = try #require(try decoder.decode(stored).first)
        #expect(plain.corners.allSatisfy { $0.x < code.width && $0.y < code.height })

        // 6: the stored rows are the upright picture's columns, right to left; upright it is 300 × 600 and the code
        // sits at its top, on the right.
        for bigEndian in [false, true] {
            let turned = try #require(
                try decoder.decode(PictureFixtures.withOrientation(stored, 6, bigEndian: bigEndian)).first)
            #expect(turned.text == Self.payload)
            #expect(decoder.lastPicture?.orientation == .right)
            #expect(turned.corners.allSatisfy { $0.x >= 300 - code.height && $0.x < 300 && $0.y < code.width })
        }

        // 2: the pixels are a mirror image (as a front camera may store them); read, and corners where they are seen.
        let mirrored = try PictureFixtures.jpegtran(stored, "-flip horizontal")
        let unmirrored = try #require(try decoder.decode(PictureFixtures.withOrientation(mirrored, 2)).first)
        #expect(unmirrored.text == Self.payload)
        #expect(unmirrored.corners.allSatisfy { $0.x < code.width + 8 && $0.y < code.height })

        // 3: upside down.
        let upsideDown = try PictureFixtures.jpegtran(stored, "-rotate 180")
        let righted = try #require(try decoder.decode(PictureFixtures.withOrientation(upsideDown, 3)).first)
        #expect(righted.corners.allSatisfy { $0.x < code.width + 8 && $0.y < code.height + 8 })
    }

    @Test("a large JPEG is scanned reduced first, and at full size only when that finds nothing")
    func reducedFirstPass() throws {
        let decoder = QRDecoder()
        for (moduleSize, reduction) in [(8, 2), (2, 1)] {
            let code = PNGFixtures.codeImage(Self.payload, moduleSize: moduleSize)
            let (width, height) = (4000, 3000)
            var pixels = [UInt8](repeating: 255, count: width * height)
            let (left, top) = (1700, 1200)
            for y in 0..<code.height {
                for x in 0..<code.width { pixels[(top + y) * width + left + x] = code.pixels[y * code.width + x] }
            }
            let jpeg = try PictureFixtures.convert(
                PNGFixtures.png(GrayImage(width: width, height: height, pixels: pixels)), .jpegBaseline)
            let symbol = try #require(try decoder.decode(jpeg).first, "module size \(moduleSize)")
            #expect(symbol.text == Self.payload)
            #expect(decoder.lastPicture?.reduction == reduction, "module size \(moduleSize)")
            #expect(decoder.lastPicture?.width == width && decoder.lastPicture?.height == height)
            // Corners in the full-size picture, within a module or two of the code's quiet zone.
            let slack = 4 * moduleSize + 4
            #expect(
                symbol.corners.allSatisfy {
                    $0.x >= left - 2 && $0.x <= left + code.width + slack && $0.y >= top - 2
                        && $0.y <= top + code.height + slack
                }, "\(symbol.corners)")
        }
    }

    @Test("a JPEG is a JPEG whatever the reader was handed, and the pixel limit applies to its full size")
    func jpegReaderDirectly() throws {
        let jpeg = try PictureFixtures.convert(Self.png, .jpegGray)
        let full = try JPEGReader().read(jpeg)
        let source = try PNGReader().read(Self.png)
        #expect(full.width == source.width && full.height == source.height)
        var reduced = GrayImage(width: 0, height: 0, pixels: [])
        _ = try jpeg.withUnsafeBufferPointer { try JPEGReader().read($0, reduction: 4, into: &reduced) }
        #expect(reduced.width == (source.width + 3) / 4 && reduced.height == (source.height + 3) / 4)
        let limit = source.width * source.height - 1
        #expect(throws: DecodeError.imageTooLarge(width: source.width, height: source.height, limit: limit)) {
            try JPEGReader(pixelLimit: limit).read(jpeg)
        }
    }

    /// The Huffman-coded JPEGs: libjpeg warns when their data ends early (arithmetic coding's decoder does not).
    static let huffmanJPEGs: [PictureFixtures.Conversion] = [
        .jpegBaseline, .jpegProgressive, .jpegGray, .jpegRestartMarkers, .jpegCMYK,
    ]

    @Test(
        "a JPEG lacking only its end marker (EOI) is read whole, with a warning; watch still waits for it",
        arguments: huffmanJPEGs)
    func missingEndMarker(_ conversion: PictureFixtures.Conversion) throws {
        let jpeg = try PictureFixtures.convert(Self.png, conversion)
        #expect(jpeg.suffix(2) == [0xFF, 0xD9])
        let decoder = QRDecoder()
        let whole = try decoder.decode(jpeg)
        #expect(decoder.lastPicture?.warnings == [])
        let lacking = Array(jpeg.dropLast(2))
        #expect(try decoder.decode(lacking) == whole)
        #expect(decoder.lastPicture?.warnings == [.missingEndMarker(format: .jpeg)])
        // The very pixels of the whole file, not a picture with gray filling in.
        #expect(try JPEGReader().read(lacking) == JPEGReader().read(jpeg))
        // A file being written looks the same: watch waits for it to be quiet before it is judged.
        #expect(ImageCompleteness.of(lacking) == .incomplete)
    }

    @Test("an arithmetic-coded JPEG lacking its end marker is cut short: libjpeg cannot tell whether data is missing")
    func arithmeticMissingEndMarker() throws {
        let jpeg = try PictureFixtures.convert(Self.png, .jpegArithmetic)
        #expect(throws: DecodeError.truncatedImage(format: .jpeg)) { try QRDecoder().decode(Array(jpeg.dropLast(2))) }
    }

    @Test("a JPEG cut inside its entropy-coded data is still cut short", arguments: huffmanJPEGs + [.jpegArithmetic])
    func cutInsideTheData(_ conversion: PictureFixtures.Conversion) throws {
        let jpeg = try PictureFixtures.convert(Self.png, conversion)
        let scan = try #require(Self.markerOffsets(jpeg, 0xDA).last)
        for cut in [jpeg.count - 3, jpeg.count - 40, (scan + jpeg.count) / 2] {
            #expect(throws: DecodeError.truncatedImage(format: .jpeg), "\(conversion) cut at \(cut)") {
                try QRDecoder().decode(Array(jpeg.prefix(cut)))
            }
        }
    }

    @Test("a progressive JPEG cut between two scans is cut short: its scans are whole, but not all there")
    func cutBetweenScans() throws {
        let jpeg = try PictureFixtures.convert(Self.png, .jpegProgressive)
        // Every scan but the last, each whole: libjpeg alone would decode it blurred without a warning.
        let boundaries = Self.markerOffsets(jpeg, 0xDA).dropFirst() + Self.markerOffsets(jpeg, 0xC4)
        let scans = Self.markerOffsets(jpeg, 0xDA)
        for cut in boundaries where cut > scans[0] {
            #expect(throws: DecodeError.truncatedImage(format: .jpeg), "cut at \(cut)") {
                try JPEGReader().read(Array(jpeg.prefix(cut)))
            }
        }
        #expect(boundaries.contains { $0 > scans[0] })
    }

    /// Where each `FF marker` of `jpeg` starts (entropy-coded data stuffs `FF 00`, so no scan data matches).
    static func markerOffsets(_ jpeg: [UInt8], _ marker: UInt8) -> [Int] {
        (0..<(jpeg.count - 1)).filter { jpeg[$0] == 0xFF && jpeg[$0 + 1] == marker }
    }

    @Test("CMYK luma: white paper stays white, full black ink is black")
    func cmykLuma() {
        var out = [UInt8](repeating: 0, count: 3)
        // Adobe's inverted values: 255 means no ink.
        JPEGReader.luma(ofInvertedCMYK: [255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 255], into: &out)
        #expect(out[0] >= 254 && out[1] == 0 && out[2] == 0)
    }

    // MARK: Bomb makers

    /// `jpeg` with its frame header (SOF0…SOF2) claiming `side` × `side`.
    static func patchingJPEGSize(_ jpeg: [UInt8], to side: Int) -> [UInt8] {
        var out = jpeg
        var offset = 2
        while offset + 9 < out.count, out[offset] == 0xFF {
            let marker = out[offset + 1]
            let length = Int(out[offset + 2]) << 8 | Int(out[offset + 3])
            if (0xC0...0xC2).contains(marker) {
                for at in [offset + 5, offset + 7] {
                    out[at] = UInt8(side >> 8)
                    out[at + 1] = UInt8(side & 0xFF)
                }
                return out
            }
            offset += 2 + length
        }
        Issue.record("no frame header found")
        return out
    }

    /// `webp` (lossless) with its VP8L header claiming 16384 × 16384, the most it can say.
    static func patchingWebPLosslessSize(_ webp: [UInt8]) -> [UInt8] {
        var out = webp
        #expect(String(decoding: out[12..<16], as: UTF8.self) == "VP8L")
        // After the 0x2F signature byte: 14 bits of width - 1, 14 bits of height - 1, little-endian.
        out[21] = 0xFF
        out[22] = 0xFF
        out[23] = 0xFF
        out[24] = (out[24] & 0xF0) | 0x0F
        return out
    }

    /// `heif` with its image spatial extents (`ispe`) claiming `side` × `side`.
    static func patchingISPE(_ heif: [UInt8], to side: Int) -> [UInt8] {
        var out = heif
        let ispe = Array("ispe".utf8)
        guard let at = (0..<(out.count - 16)).first(where: { Array(out[$0..<$0 + 4]) == ispe }) else {
            Issue.record("no ispe box")
            return out
        }
        for field in [at + 8, at + 12] {
            for index in 0..<4 { out[field + index] = UInt8(truncatingIfNeeded: side >> (8 * (3 - index))) }
        }
        return out
    }
}

@Suite("JPEG inputs the fuzzer found")
struct JPEGFuzzRegressionTests {
    @Test("a frame header of 0 × 0 pixels is refused, not decoded to an empty image")
    func noSize() throws {
        #expect(throws: DecodeError.unreadableImage(format: .jpeg, reason: "the frame header declares 0 × 0 pixels")) {
            try JPEGReader().read(try fixture("fuzz-jpeg-no-size.jpg"))
        }
    }

    @Test("rows a corrupt file never writes are white, not the previous picture's")
    func unwrittenRows() throws {
        let bytes = try fixture("fuzz-jpeg-unwritten-rows.jpg")
        let fresh = try JPEGReader().read(bytes)
        var reused = GrayImage(
            width: fresh.width, height: fresh.height, pixels: Array(repeating: 7, count: fresh.pixels.count))
        _ = try bytes.withUnsafeBufferPointer { try JPEGReader().read($0, into: &reused) }
        #expect(reused == fresh)
    }
}
