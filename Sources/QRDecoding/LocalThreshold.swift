/// Splits a gray image into dark and light by comparing each pixel with the mean of the square window around it.
///
/// A photo lit unevenly has no one threshold that separates its modules everywhere; the local mean follows the
/// light. Used to find finder patterns by their run lengths, never as the image zbar scans.
enum LocalThreshold {
    /// One byte per pixel, 1 where the pixel is darker than its window's mean by more than `bias` levels.
    ///
    /// The window is `2 * radius + 1` pixels square, clipped at the image edges. The window sums slide: one sum per
    /// column over the window's rows, moved down a row at a time, and their running sum along each row, so the
    /// memory beside the mask is a few rows. Sums are kept modulo 2³² (wrapping): each window's sum is below 2³², so
    /// the differences of the running sums are exact.
    static func darkMask(_ image: GrayImage, radius: Int, bias: Int = 3) -> [UInt8] {
        let width = image.width
        let height = image.height
        guard width > 0, height > 0, image.pixels.count == width * height else { return [] }
        let radius = max(1, radius)
        var columns = [UInt32](repeating: 0, count: width)
        // prefix[x]: the sum of columns[0..<x].
        var prefix = [UInt32](repeating: 0, count: width + 1)
        var mask = [UInt8](repeating: 0, count: width * height)
        // Pointers and wrapping arithmetic, so the loops vectorise: every index stays inside its buffer, and a
        // pixel's level times its window's area is far below 2⁶³.
        let bias = bias
        image.pixels.withUnsafeBufferPointer { pixels in
            columns.withUnsafeMutableBufferPointer { columns in
                prefix.withUnsafeMutableBufferPointer { prefix in
                    mask.withUnsafeMutableBufferPointer { mask in
                        guard let pixels = pixels.baseAddress, let columns = columns.baseAddress,
                            let prefix = prefix.baseAddress, let mask = mask.baseAddress
                        else { return }
                        // The rows top..<bottom are summed in `columns`.
                        var top = 0
                        var bottom = 0
                        for y in 0..<height {
                            while bottom < min(height, y + radius + 1) {
                                let row = pixels + bottom &* width
                                for x in 0..<width { columns[x] &+= UInt32(row[x]) }
                                bottom += 1
                            }
                            while top < y - radius {
                                let row = pixels + top &* width
                                for x in 0..<width { columns[x] &-= UInt32(row[x]) }
                                top += 1
                            }
                            var running: UInt32 = 0
                            for x in 0..<width {
                                prefix[x] = running
                                running &+= columns[x]
                            }
                            prefix[width] = running
                            let rows = bottom - top
                            let source = pixels + y &* width
                            let target = mask + y &* width
                            // Away from the left and right edges every window is whole: a loop without clipping.
                            let inner = min(width, radius)..<max(min(width, radius), width - radius - 1)
                            for edge in [0..<inner.lowerBound, inner.upperBound..<width] {
                                for x in edge {
                                    let left = max(0, x - radius)
                                    let right = min(width, x + radius + 1)
                                    let sum = prefix[right] &- prefix[left]
                                    let area = rows &* (right &- left)
                                    let value = Int(source[x]) &+ bias
                                    target[x] = value &* area < Int(sum) ? 1 : 0
                                }
                            }
                            let span = 2 * radius + 1
                            let area = rows &* span
                            let windowStart = prefix - radius
                            let windowEnd = windowStart + span
                            if (0...256).contains(bias), area <= Int(UInt32.max) / 512 {
                                // In 32 bits (level + bias is below 512), which vectorises on every x86-64.
                                let area = UInt32(area)
                                let bias = UInt32(bias)
                                for x in inner {
                                    let sum = windowEnd[x] &- windowStart[x]
                                    target[x] = (UInt32(source[x]) &+ bias) &* area < sum ? 1 : 0
                                }
                            } else {
                                for x in inner {
                                    let sum = windowEnd[x] &- windowStart[x]
                                    target[x] = (Int(source[x]) &+ bias) &* area < Int(sum) ? 1 : 0
                                }
                            }
                        }
                    }
                }
            }
        }
        return mask
    }
}
