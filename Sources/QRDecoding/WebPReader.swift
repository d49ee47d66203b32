import CWebP

/// Decodes WebP bytes (lossy or lossless) to 8-bit gray with libwebp: the Y plane of its YUV output.
///
/// The dimensions come from `WebPGetInfo` and are checked against the pixel limit before anything is decoded.
/// Transparency is not composited: the luma of transparent pixels is whatever the encoder kept.
public struct WebPReader: Sendable {
    /// The most pixels (`width * height`) an image may have.
    public let pixelLimit: Int

    public init(pixelLimit: Int = PNGReader.defaultPixelLimit) {
        self.pixelLimit = pixelLimit
    }

    /// Decodes `bytes` into `image`, reusing its storage.
    ///
    /// The corresponding C functions are `WebPGetInfo`, `WebPDecodeYUV` and `WebPFree`.
    public func read(_ bytes: UnsafeBufferPointer<UInt8>, into image: inout GrayImage) throws(DecodeError) {
        var pixels = image.pixels
        image = GrayImage(width: 0, height: 0, pixels: [])
        pixels.removeAll(keepingCapacity: true)
        guard ImageCompleteness.of(bytes) == .complete, let base = bytes.baseAddress else {
            image = GrayImage(width: 0, height: 0, pixels: pixels)
            throw .truncatedImage(format: .webp)
        }
        var width: Int32 = 0
        var height: Int32 = 0
        guard WebPGetInfo(base, bytes.count, &width, &height) != 0 else {
            image = GrayImage(width: 0, height: 0, pixels: pixels)
            throw .unreadableImage(format: .webp, reason: "libwebp cannot read the header (or it is an animation)")
        }
        let count = Int(width) * Int(height)
        guard count <= pixelLimit else {
            image = GrayImage(width: 0, height: 0, pixels: pixels)
            throw .imageTooLarge(width: Int(width), height: Int(height), limit: pixelLimit)
        }
        var u: UnsafeMutablePointer<UInt8>?
        var v: UnsafeMutablePointer<UInt8>?
        var stride: Int32 = 0
        var uvStride: Int32 = 0
        guard let y = WebPDecodeYUV(base, bytes.count, &width, &height, &u, &v, &stride, &uvStride) else {
            image = GrayImage(width: 0, height: 0, pixels: pixels)
            throw .unreadableImage(format: .webp, reason: "libwebp cannot decode the picture data")
        }
        // U and V live in the same allocation as Y: one free.
        defer { WebPFree(y) }
        let rowWidth = Int(width)
        let rows = Int(height)
        pixels.reserveCapacity(rowWidth * rows)
        for row in 0..<rows {
            pixels.append(contentsOf: UnsafeBufferPointer(start: y + row * Int(stride), count: rowWidth))
        }
        image = GrayImage(width: rowWidth, height: rows, pixels: pixels)
    }

    /// Decodes `bytes` into a new gray image.
    public func read(_ bytes: [UInt8]) throws(DecodeError) -> GrayImage {
        var image = GrayImage(width: 0, height: 0, pixels: [])
        try bytes.withUnsafeBufferPointer { buffer throws(DecodeError) in try read(buffer, into: &image) }
        return image
    }
}
