import FuzzSupport
import ProspectsCore
import QRDecoding

/// Fuzzes the JPEG path on arbitrary bytes: `JPEGReader` (libturbojpeg) at full size and reduced, the EXIF
/// orientation parser, then zbar and the payload parser on what decodes. The pixel limit is 4 MP so that headers
/// claiming large images are refused cheaply. A file read with the missing-end-marker warning must be one
/// `ImageCompleteness` calls incomplete, and the reduced read must warn alike.
let pixelLimit = 4_000_000
let reader = JPEGReader(pixelLimit: pixelLimit)
nonisolated(unsafe) let decoder = QRDecoder(pixelLimit: pixelLimit)
let parser = PayloadParser()
nonisolated(unsafe) var reused = GrayImage(width: 0, height: 0, pixels: [])
nonisolated(unsafe) var reduced = GrayImage(width: 0, height: 0, pixels: [])
nonisolated(unsafe) var warnings: [DecodeWarning] = []

runFuzzer { data, size in
    let input = inputBytes(data, size)
    _ = input.withUnsafeBufferPointer { ImageOrientation.ofJPEG($0) }
    let image = checkPictureRead(input, format: .jpeg, pixelLimit: pixelLimit, reused: &reused) {
        (bytes, image) throws(DecodeError) in
        warnings = try bytes.withUnsafeBufferPointer { buffer throws(DecodeError) in
            try reader.read(buffer, into: &image)
        }
    }
    guard let image else { return 0 }
    require(
        warnings.isEmpty == (ImageCompleteness.of(input) == .complete),
        "warnings \(warnings) for a file whose completeness is \(ImageCompleteness.of(input))")
    // DCT scaling gives the size libturbojpeg promises: the full size divided, rounded up.
    let reduction = 1 << (1 + Int(input.count % 3))
    do throws(DecodeError) {
        let reducedWarnings = try input.withUnsafeBufferPointer { buffer throws(DecodeError) in
            try reader.read(buffer, reduction: reduction, into: &reduced)
        }
        require(reducedWarnings == warnings, "the 1/\(reduction) read warned \(reducedWarnings), not \(warnings)")
    } catch {
        violated("the full-size read worked, the 1/\(reduction) read failed: \(error)")
    }
    require(
        reduced.width == (image.width + reduction - 1) / reduction
            && reduced.height == (image.height + reduction - 1) / reduction,
        "1/\(reduction) of \(image.width)×\(image.height) is \(reduced.width)×\(reduced.height)")
    checkScan(image, with: decoder, parser: parser)
    return 0
}
