import ProspectsTestSupport
import QRDecoding
import Testing

@Suite("ImageCompleteness: whether a picture's bytes are all there yet, without decoding")
struct ImageCompletenessTests {
    static let png = PNGFixtures.contactCode("Paul Hudson\npaul@hackingwithswift.com", moduleSize: 3)

    /// Every prefix of `bytes` (every `step`-th, and the last few) is incomplete; the whole file, and the file with
    /// bytes appended after its end (as some phones write), are complete.
    func expectOnlyTheWholeIsComplete(_ bytes: [UInt8], step: Int, _ what: String) {
        let cuts = Array(stride(from: 1, to: bytes.count, by: step)) + Array(max(1, bytes.count - 16)..<bytes.count)
        for cut in cuts {
            #expect(ImageCompleteness.of(Array(bytes.prefix(cut))) == .incomplete, "\(what) cut at \(cut)")
        }
        #expect(ImageCompleteness.of(bytes) == .complete, "\(what)")
    }

    @Test("PNG: complete at IEND") func png() {
        expectOnlyTheWholeIsComplete(Self.png, step: 1, "PNG")
        #expect(ImageCompleteness.of(Self.png + Array("trailing".utf8)) == .complete)
        #expect(ImageCompleteness.of(PNGFixtures.hugeDimensionsHeader()) == .complete)
    }

    @Test("JPEG, WebP, HEIC, AVIF: complete only when whole", arguments: PictureFixtures.Conversion.readable)
    func others(_ conversion: PictureFixtures.Conversion) throws {
        let bytes = try PictureFixtures.convert(Self.png, conversion)
        expectOnlyTheWholeIsComplete(bytes, step: max(1, bytes.count / 500), "\(conversion)")
        if conversion.fileExtension == "jpg" {
            // A JPEG followed by a second one (MPF depth maps, Samsung trailers): complete at the first EOI.
            #expect(ImageCompleteness.of(bytes + bytes) == .complete)
        }
    }

    @Test("JPEG: an EOI inside an EXIF thumbnail does not end the picture")
    func jpegThumbnail() throws {
        let jpeg = try PictureFixtures.convert(Self.png, .jpegBaseline)
        // An APP1 segment holding a whole small JPEG (as an EXIF thumbnail is held), then the picture cut short.
        let thumbnail: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let body = Array("Exif".utf8) + [0, 0] + thumbnail
        let segment: [UInt8] = [0xFF, 0xE1, 0, UInt8(body.count + 2)] + body
        let withThumbnail = Array(jpeg.prefix(2)) + segment + Array(jpeg.dropFirst(2))
        #expect(ImageCompleteness.of(withThumbnail) == .complete)
        #expect(ImageCompleteness.of(Array(withThumbnail.prefix(withThumbnail.count / 2))) == .incomplete)
        #expect(ImageCompleteness.of(Array(withThumbnail.prefix(2 + segment.count + 4))) == .incomplete)
    }

    @Test("not pictures: named at once, never waited for")
    func notPictures() {
        #expect(ImageCompleteness.of(Array("a note\n".utf8)) == .notAPicture(.text))
        #expect(ImageCompleteness.of(Array("GIF89a".utf8)) == .notAPicture(.gif))
        #expect(ImageCompleteness.of([]) == .notAPicture(.empty))
        #expect(ImageCompleteness.of(Array("a note, and more\n".utf8).prefix(5).map { $0 }) == .notAPicture(.text))
    }
}
