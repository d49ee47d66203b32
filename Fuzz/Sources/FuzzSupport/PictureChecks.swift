import ProspectsCore
import QRDecoding

/// What must hold for every read of arbitrary bytes by one of the picture readers (`read` decodes into the buffer
/// it is given): a decoded image has exactly width × height pixels, within `pixelLimit`, and the same when read again
/// into a buffer that held another image; each refusal is the one its case promises; the structure checks
/// (`ImageFormat`, `ImageCompleteness`) answer for any bytes. Returns the image when one was decoded.
/// `samePixelsEachTime: false` compares only the size of two reads, for a decoder that leaves the blocks of a corrupt
/// stream uninitialised (libheif's HEVC decoder does).
@discardableResult
public func checkPictureRead(
    _ bytes: [UInt8], format: ImageFormat, pixelLimit: Int, reused: inout GrayImage, samePixelsEachTime: Bool = true,
    read: ([UInt8], inout GrayImage) throws(DecodeError) -> Void
) -> GrayImage? {
    _ = ImageFormat.of(bytes)
    let completeness = ImageCompleteness.of(bytes)
    var image = GrayImage(width: 0, height: 0, pixels: [])
    do throws(DecodeError) {
        try read(bytes, &image)
    } catch {
        switch error {
        case .imageTooLarge(let width, let height, let limit):
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            require(overflow || pixels > limit, "refused \(width)×\(height) under the limit \(limit)")
        case .unreadableImage(let named, let reason):
            require(named == format, "the \(format.name) reader named \(named.name)")
            require(!reason.isEmpty, "an unreadable image without a reason")
        case .truncatedImage(let named):
            require(named == format, "the \(format.name) reader named \(named.name)")
            require(completeness != .complete, "a complete file refused as truncated")
        case .unsupportedFormat, .scanFailed:
            violated("the \(format.name) reader reported \(error)")
        }
        require(image.pixels.isEmpty, "a failed read left \(image.pixels.count) pixels")
        return nil
    }
    require(image.width > 0 && image.height > 0, "decoded an image of \(image.width)×\(image.height)")
    require(image.pixels.count == image.width * image.height, "pixel count \(image.pixels.count) ≠ width × height")
    require(image.pixels.count <= pixelLimit, "decoded \(image.pixels.count) pixels, over the limit")
    do throws(DecodeError) {
        try read(bytes, &reused)
    } catch {
        violated("a second read into a reused buffer failed: \(error)")
    }
    if samePixelsEachTime {
        require(reused == image, "a read into a reused buffer differs from a fresh read")
    } else {
        require(reused.width == image.width && reused.height == image.height, "a second read has another size")
    }
    return image
}

/// `checkPictureRead`, then `checkScan` on what decoded: the whole check of a reader that has nothing of its own to add.
public func checkPictureReadAndScan(
    _ bytes: [UInt8], format: ImageFormat, pixelLimit: Int, reused: inout GrayImage, samePixelsEachTime: Bool = true,
    decoder: QRDecoder, parser: PayloadParser, read: ([UInt8], inout GrayImage) throws(DecodeError) -> Void
) {
    let image = checkPictureRead(
        bytes, format: format, pixelLimit: pixelLimit, reused: &reused, samePixelsEachTime: samePixelsEachTime,
        read: read)
    if let image { checkScan(image, with: decoder, parser: parser) }
}

/// Scans a small decoded image with `decoder` and checks every symbol's payload against the parser's invariants.
public func checkScan(_ image: GrayImage, with decoder: QRDecoder, parser: PayloadParser) {
    guard image.pixels.count <= 250_000, let symbols = try? decoder.scan(image) else { return }
    for symbol in symbols {
        switch parser.parse(utf8: symbol.bytes) {
        case .success(let prospect): checkProspect(prospect)
        case .failure(let error): checkError(error)
        }
    }
}
