/// Averages each pixel with its neighbours: a cheap low-pass filter for noisy and textured photos.
///
/// zbar's scan-line edge detector fires on sensor noise, JPEG ringing, halftone dots and pictures printed inside
/// the modules, and then misses the finder patterns. A small blur removes those edges while the module edges,
/// which are several pixels apart, survive.
public enum BoxBlur {
    /// The mean of the (2 `radius` + 1)² square around each pixel, clipped at the borders. Separable running
    /// sums: two reads per pixel and direction, whatever the radius.
    public static func blurred(_ image: GrayImage, radius: Int) -> GrayImage {
        precondition(radius >= 0, "blur radius must not be negative")
        let width = image.width
        let height = image.height
        guard radius > 0, width > 0, height > 0 else { return image }
        var horizontal = [UInt16](repeating: 0, count: width * height)
        var out = [UInt8](repeating: 0, count: width * height)
        image.pixels.withUnsafeBufferPointer { source in
            horizontal.withUnsafeMutableBufferPointer { rows in
                // Horizontal pass: each value is the mean of its row window, kept ×256 so rounding happens once.
                for y in 0..<height {
                    let row = y * width
                    var sum = 0
                    for x in 0..<min(radius, width) { sum += Int(source[row + x]) }
                    for x in 0..<width {
                        if x + radius < width { sum += Int(source[row + x + radius]) }
                        if x - radius - 1 >= 0 { sum -= Int(source[row + x - radius - 1]) }
                        let count = min(width - 1, x + radius) - max(0, x - radius) + 1
                        rows[row + x] = UInt16(sum * 256 / count)
                    }
                }
            }
            horizontal.withUnsafeBufferPointer { rows in
                out.withUnsafeMutableBufferPointer { target in
                    // Vertical pass, one running sum per column.
                    var sums = [Int](repeating: 0, count: width)
                    sums.withUnsafeMutableBufferPointer { sums in
                        for y in 0..<min(radius, height) {
                            for x in 0..<width { sums[x] += Int(rows[y * width + x]) }
                        }
                        for y in 0..<height {
                            let entering = y + radius < height ? (y + radius) * width : -1
                            let leaving = y - radius - 1 >= 0 ? (y - radius - 1) * width : -1
                            let count = min(height - 1, y + radius) - max(0, y - radius) + 1
                            let divisor = count * 256
                            for x in 0..<width {
                                if entering >= 0 { sums[x] += Int(rows[entering + x]) }
                                if leaving >= 0 { sums[x] -= Int(rows[leaving + x]) }
                                target[y * width + x] = UInt8((sums[x] + divisor / 2) / divisor)
                            }
                        }
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}
