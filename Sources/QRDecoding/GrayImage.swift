/// 8-bit gray pixels, row-major, stride == width.
///
/// The one image type between the PNG reader and the QR scanner: 0 is black, 255 is white.
public struct GrayImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height` bytes, top row first.
    public var pixels: [UInt8]

    /// Wraps `pixels`; `pixels.count` must equal `width * height`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "GrayImage dimensions must not be negative")
        precondition(pixels.count == width * height, "GrayImage needs width * height pixels")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A copy enlarged `factor` times by pixel repetition (nearest neighbour).
    ///
    /// zbar cannot find codes drawn at 1 pixel per module; at 2 it can.
    public func upscaled(by factor: Int) -> GrayImage {
        precondition(factor >= 1, "upscale factor must be at least 1")
        let outWidth = width * factor
        let outHeight = height * factor
        let out = [UInt8](unsafeUninitializedCapacity: outWidth * outHeight) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    let sourceRow = y * width
                    let firstOutRow = y * factor * outWidth
                    for x in 0..<width {
                        let value = source[sourceRow + x]
                        let base = firstOutRow + x * factor
                        for dx in 0..<factor { buffer[base + dx] = value }
                    }
                    // The other rows of this band repeat the row just written.
                    for dy in 1..<factor {
                        let target = firstOutRow + dy * outWidth
                        buffer.baseAddress!.advanced(by: target)
                            .update(from: buffer.baseAddress!.advanced(by: firstOutRow), count: outWidth)
                    }
                }
            }
            count = outWidth * outHeight
        }
        return GrayImage(width: outWidth, height: outHeight, pixels: out)
    }
}
