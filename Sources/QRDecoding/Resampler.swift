/// Changes the size of a gray image for the recovery passes: box-filter reduction and bilinear enlargement.
///
/// zbar finds codes best at a few pixels per module. Large photos carry sensor noise and JPEG blocks at full
/// size that a box filter averages away (and scanning fewer pixels is cheaper); small, blurred codes need more
/// pixels per module, and smooth (bilinear) enlargement keeps their edges where they were.
public enum Resampler {
    /// Each `factor` × `factor` block averaged into one pixel; a partial block at the right or bottom edge is
    /// averaged over the pixels it has.
    public static func boxDownscaled(_ image: GrayImage, by factor: Int) -> GrayImage {
        precondition(factor >= 1, "downscale factor must be at least 1")
        guard factor > 1 else { return image }
        let width = image.width
        let height = image.height
        let outWidth = (width + factor - 1) / factor
        let outHeight = (height + factor - 1) / factor
        var sums = [UInt32](repeating: 0, count: outWidth)
        let out = [UInt8](unsafeUninitializedCapacity: outWidth * outHeight) { buffer, count in
            image.pixels.withUnsafeBufferPointer { source in
                sums.withUnsafeMutableBufferPointer { rowSums in
                    for outY in 0..<outHeight {
                        let firstRow = outY * factor
                        let rows = min(factor, height - firstRow)
                        rowSums.update(repeating: 0)
                        for y in firstRow..<(firstRow + rows) {
                            let row = y * width
                            for x in 0..<width {
                                rowSums[x / factor] &+= UInt32(source[row + x])
                            }
                        }
                        for outX in 0..<outWidth {
                            let columns = min(factor, width - outX * factor)
                            let area = UInt32(rows * columns)
                            buffer[outY * outWidth + outX] = UInt8((rowSums[outX] + area / 2) / area)
                        }
                    }
                }
            }
            count = outWidth * outHeight
        }
        return GrayImage(width: outWidth, height: outHeight, pixels: out)
    }

    /// A copy enlarged `factor` times with bilinear interpolation (pixel centres aligned).
    public static func bilinearUpscaled(_ image: GrayImage, by factor: Int) -> GrayImage {
        precondition(factor >= 1, "upscale factor must be at least 1")
        guard factor > 1, image.width > 0, image.height > 0 else { return image }
        let width = image.width
        let height = image.height
        let outWidth = width * factor
        let outHeight = height * factor
        // Source position of output pixel i, in 1/(2·factor) steps: (2i + 1 - factor) / (2·factor).
        let denominator = 2 * factor
        func sample(_ index: Int, limit: Int) -> (low: Int, high: Int, weight: Int) {
            let position = max(0, 2 * index + 1 - factor)
            let low = min(position / denominator, limit - 1)
            let high = min(low + 1, limit - 1)
            return (low, high, position - low * denominator)
        }
        let columns = (0..<outWidth).map { sample($0, limit: width) }
        let out = [UInt8](unsafeUninitializedCapacity: outWidth * outHeight) { buffer, count in
            image.pixels.withUnsafeBufferPointer { source in
                columns.withUnsafeBufferPointer { columns in
                    for outY in 0..<outHeight {
                        let (top, bottom, wy) = sample(outY, limit: height)
                        let topRow = top * width
                        let bottomRow = bottom * width
                        let outRow = outY * outWidth
                        for outX in 0..<outWidth {
                            let (left, right, wx) = columns[outX]
                            let upper =
                                Int(source[topRow + left]) * (denominator - wx) + Int(source[topRow + right]) * wx
                            let lower =
                                Int(source[bottomRow + left]) * (denominator - wx) + Int(source[bottomRow + right]) * wx
                            let value =
                                (upper * (denominator - wy) + lower * wy + denominator * denominator / 2)
                                / (denominator * denominator)
                            buffer[outRow + outX] = UInt8(value)
                        }
                    }
                }
            }
            count = outWidth * outHeight
        }
        return GrayImage(width: outWidth, height: outHeight, pixels: out)
    }
}
