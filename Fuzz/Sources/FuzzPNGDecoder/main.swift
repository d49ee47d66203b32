import FuzzSupport
import ProspectsCore
import QRDecoding

/// Fuzzes the decoding path on arbitrary bytes: `PNGReader` (libpng) → `QRDecoder` passes (zbar) → `PayloadParser`.
///
/// The pixel limit is 4 MP (not the 50 MP default) so a header claiming a large image is refused cheaply and the
/// fuzzer stays within its memory limit. Checked: a decoded image has exactly width × height pixels, within
/// the limit, the same when read into a reused buffer, and the same as the simplified API's pixels; a refusal for size names dimensions over the limit; every symbol's bytes go through the parser
/// and meet its invariants.
let pixelLimit = 4_000_000
let reader = PNGReader(pixelLimit: pixelLimit)
let simplified = PNGReader(pixelLimit: pixelLimit, allowsClassicPath: false)
nonisolated(unsafe) let decoder = QRDecoder(pixelLimit: pixelLimit)
let parser = PayloadParser()
nonisolated(unsafe) var reused = GrayImage(width: 0, height: 0, pixels: [])

/// `png` with every chunk's CRC recomputed, or nil when none was wrong (or the bytes are not chunked like a PNG).
///
/// libpng stops at a critical chunk with a bad CRC, so almost every mutation of IHDR, PLTE, tRNS or IDAT would
/// die there; and libpng is not instrumented, so coverage cannot guide the fuzzer past it. Mutated inputs are
/// therefore decoded twice: as they are (the CRC paths) and with their CRCs repaired (the chunk parsers).
func repairingCRCs(_ png: [UInt8]) -> [UInt8]? {
    var out = png
    var offset = 8
    var changed = false
    while offset + 12 <= out.count {
        let length = out[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        guard length <= out.count - offset - 12 else { break }
        let crc = crc32(out[(offset + 4)..<(offset + 8 + length)])
        let stored = out[(offset + 8 + length)..<(offset + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        if crc != stored {
            for index in 0..<4 { out[offset + 8 + length + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
            changed = true
        }
        offset += 12 + length
    }
    return changed ? out : nil
}

let crcTable: [UInt32] = (0..<256).map { index in
    (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
}

func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    ~bytes.reduce(~UInt32(0)) { crc, byte in crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
}

runFuzzer { data, size in
    let input = inputBytes(data, size)
    check(input)
    if let repaired = repairingCRCs(input) { check(repaired) }
    return 0
}

func check(_ bytes: [UInt8]) {
    let image: GrayImage
    do throws(DecodeError) {
        image = try reader.read(bytes)
    } catch {
        switch error {
        case .imageTooLarge(let width, let height, let limit):
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            require(overflow || pixels > limit, "refused \(width)×\(height) under the limit \(limit)")
        case .unreadableImage(let format, let reason):
            require(format == .png, "the PNG reader named \(format)")
            require(!reason.isEmpty, "an unreadable image without a reason")
        case .truncatedImage(let format):
            require(format == .png, "the PNG reader named \(format)")
            require(ImageCompleteness.of(bytes) != .complete, "a complete file refused as truncated")
        case .unsupportedFormat, .scanFailed:
            violated("the PNG reader reported \(error)")
        }
        return
    }
    require(image.width > 0 && image.height > 0, "decoded an image of \(image.width)×\(image.height)")
    require(image.pixels.count == image.width * image.height, "pixel count \(image.pixels.count) ≠ width × height")
    require(image.pixels.count <= pixelLimit, "decoded \(image.pixels.count) pixels, over the limit")

    let symbols: [QRSymbol]
    do {
        symbols = try decoder.scan(image)
    } catch {
        return  // zbar's own failure is reported, not a crash
    }
    for symbol in symbols {
        switch parser.parse(utf8: symbol.bytes) {
        case .success(let prospect): checkProspect(prospect)
        case .failure(let error): checkError(error)
        }
        for corner in symbol.corners {
            require(
                corner.x >= -1 && corner.y >= -1 && corner.x <= image.width * 2 && corner.y <= image.height * 2,
                "a corner at \(corner) outside a \(image.width)×\(image.height) image")
        }
    }
    // Decoding again into a buffer reused across inputs (as `QRDecoder` does) gives the same pixels.
    do {
        try reader.read(bytes, into: &reused)
    } catch {
        violated("a second read into a reused buffer failed: \(error)")
    }
    require(reused == image, "a read into a reused buffer differs from a fresh read")
    // What the classic path (its whole-file inflate included) decodes, the simplified API decodes the same, or refuses
    // (it checks zlib's Adler-32, which the classic path leaves to the chunk CRCs).
    if let canonical = try? simplified.read(bytes) {
        require(canonical == image, "the classic path's pixels differ from the simplified API's")
    }
}
