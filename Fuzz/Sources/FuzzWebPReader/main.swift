import FuzzSupport
import ProspectsCore
import QRDecoding

/// Fuzzes the WebP path on arbitrary bytes: `WebPReader` (libwebp, lossy and lossless), then zbar and the payload
/// parser on what decodes. The pixel limit is 4 MP so that headers claiming large images are refused cheaply.
let pixelLimit = 4_000_000
let reader = WebPReader(pixelLimit: pixelLimit)
nonisolated(unsafe) let decoder = QRDecoder(pixelLimit: pixelLimit)
let parser = PayloadParser()
nonisolated(unsafe) var reused = GrayImage(width: 0, height: 0, pixels: [])

runFuzzer { data, size in
    checkPictureReadAndScan(
        inputBytes(data, size), format: .webp, pixelLimit: pixelLimit, reused: &reused, decoder: decoder,
        parser: parser
    ) { (bytes, image) throws(DecodeError) in
        try bytes.withUnsafeBufferPointer { buffer throws(DecodeError) in try reader.read(buffer, into: &image) }
    }
    return 0
}
