import FuzzSupport
import ProspectsCore
import QRDecoding

/// Fuzzes the decoding path on arbitrary bytes: `PNGReader` (libpng) → `QRDecoder` passes (zbar) → `PayloadParser`.
///
/// The pixel limit is 4 MP (not the 50 MP default) so a header claiming a large image is refused cheaply and the
/// fuzzer stays within its memory limit. Checked: a decoded image has exactly width × height pixels, within
/// the limit, and the same when read into a reused buffer; a refusal for size names dimensions over the limit; every symbol's bytes go through the parser
/// and meet its invariants.
let pixelLimit = 4_000_000
let reader = PNGReader(pixelLimit: pixelLimit)
nonisolated(unsafe) let decoder = QRDecoder(pixelLimit: pixelLimit)
let parser = PayloadParser()
nonisolated(unsafe) var reused = GrayImage(width: 0, height: 0, pixels: [])

runFuzzer { data, size in
    let bytes = inputBytes(data, size)
    let image: GrayImage
    do throws(ImageError) {
        image = try reader.read(bytes)
    } catch {
        switch error {
        case .tooLarge(let width, let height, let limit):
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            require(overflow || pixels > limit, "refused \(width)×\(height) under the limit \(limit)")
        case .unreadable(let reason):
            require(!reason.isEmpty, "an unreadable image without a reason")
        case .cannotEncode:
            violated("the reader reported a writer error")
        }
        return 0
    }
    require(image.width > 0 && image.height > 0, "decoded an image of \(image.width)×\(image.height)")
    require(image.pixels.count == image.width * image.height, "pixel count \(image.pixels.count) ≠ width × height")
    require(image.pixels.count <= pixelLimit, "decoded \(image.pixels.count) pixels, over the limit")

    let symbols: [QRSymbol]
    do {
        symbols = try decoder.scan(image)
    } catch {
        return 0  // zbar's own failure is reported, not a crash
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
    return 0
}
