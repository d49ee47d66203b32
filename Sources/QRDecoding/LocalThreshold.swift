/// Splits a gray image into dark and light by comparing each pixel with the mean of the square window around it.
///
/// A photo lit unevenly has no one threshold that separates its modules everywhere; the local mean follows the
/// light. Used to find finder patterns by their run lengths, never as the image zbar scans.
enum LocalThreshold {
    /// One byte per pixel, 1 where the pixel is darker than its window's mean by more than `bias` levels.
    ///
    /// The window is `2 * radius + 1` pixels square, clipped at the image edges. Sums are kept modulo 2³² (wrapping):
    /// each window's sum is below 2³², so the differences of the running sums are exact.
    static func darkMask(_ image: GrayImage, radius: Int, bias: Int = 3) -> [UInt8] {
        let width = image.width
        let height = image.height
        guard width > 0, height > 0 else { return [] }
        let radius = max(1, radius)
        let stride = width + 1
        // Integral image with a zero first row and column.
        var integral = [UInt32](repeating: 0, count: stride * (height + 1))
        image.pixels.withUnsafeBufferPointer { pixels in
            integral.withUnsafeMutableBufferPointer { sums in
                for y in 0..<height {
                    var rowSum: UInt32 = 0
                    let above = y * stride
                    let here = (y + 1) * stride
                    for x in 0..<width {
                        rowSum &+= UInt32(pixels[y * width + x])
                        sums[here + x + 1] = sums[above + x + 1] &+ rowSum
                    }
                }
            }
        }
        var mask = [UInt8](repeating: 0, count: width * height)
        image.pixels.withUnsafeBufferPointer { pixels in
            integral.withUnsafeBufferPointer { sums in
                mask.withUnsafeMutableBufferPointer { mask in
                    for y in 0..<height {
                        let top = max(0, y - radius)
                        let bottom = min(height, y + radius + 1)
                        for x in 0..<width {
                            let left = max(0, x - radius)
                            let right = min(width, x + radius + 1)
                            let sum =
                                sums[bottom * stride + right] &- sums[top * stride + right]
                                &- sums[bottom * stride + left] &+ sums[top * stride + left]
                            let area = (bottom - top) * (right - left)
                            let value = Int(pixels[y * width + x]) + bias
                            mask[y * width + x] = value * area < Int(sum) ? 1 : 0
                        }
                    }
                }
            }
        }
        return mask
    }
}
