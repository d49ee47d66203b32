/// Changes the size of a gray image: box-filter reduction (the first pass's cheap scan, the recovery passes' working
/// copy) and bilinear enlargement.
///
/// zbar finds codes best at a few pixels per module. Large photos carry sensor noise and JPEG blocks at full
/// size that a box filter averages away (and scanning fewer pixels is cheaper); small, blurred codes need more
/// pixels per module, and smooth (bilinear) enlargement keeps their edges where they were.
public enum Resampler {
    /// `image` shrunk `factor` times by averaging each `factor` × `factor` block, written into `target` (whose
    /// storage is reused). The last `width % factor` columns and `height % factor` rows are dropped.
    public static func boxDownscale(_ image: GrayImage, by factor: Int, into target: inout GrayImage) {
        precondition(factor > 1 && factor <= 256, "downscale factor out of range")
        let (width, height) = (image.width, image.height)
        let outWidth = width / factor
        let outHeight = height / factor
        var pixels = Self.takeStorage(of: &target, count: outWidth * outHeight)
        // Division by factor² as a multiply and shift; off by at most one level, which no scan notices.
        let reciprocal = UInt32(((1 << 16) + factor * factor / 2) / (factor * factor))
        let usedWidth = outWidth * factor
        let sourceWidth = width
        // Per input column, the sum of the band's `factor` rows, then each block's `factor` column sums. Pointers
        // and wrapping arithmetic leave loops the compiler vectorises: every index stays inside its buffer, and no
        // sum overflows (a column's is at most 255 × factor, a block's 255 × factor²).
        var columns = [UInt16](repeating: 0, count: factor == 2 ? 0 : usedWidth)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { out in
                guard let source = source.baseAddress, let out = out.baseAddress else { return }
                if factor == 2 {
                    // The same sums, each 2 × 2 block read as two 16-bit pairs (which vectorises; byte pairs do not).
                    for y in 0..<outHeight {
                        let first = UnsafeRawPointer(source + 2 &* y &* sourceWidth)
                        let second = first + sourceWidth
                        let row = out + y &* outWidth
                        for x in 0..<outWidth {
                            let top = first.loadUnaligned(fromByteOffset: 2 &* x, as: UInt16.self)
                            let bottom = second.loadUnaligned(fromByteOffset: 2 &* x, as: UInt16.self)
                            let sum = (top & 0xFF) &+ (top &>> 8) &+ (bottom & 0xFF) &+ (bottom &>> 8)
                            row[x] = UInt8(truncatingIfNeeded: (sum &+ 2) &>> 2)
                        }
                    }
                    return
                }
                columns.withUnsafeMutableBufferPointer { columns in
                    guard let columns = columns.baseAddress else { return }
                    for y in 0..<outHeight {
                        let band = source + y &* factor &* sourceWidth
                        for x in 0..<usedWidth { columns[x] = UInt16(band[x]) }
                        for dy in 1..<factor {
                            let next = band + dy &* sourceWidth
                            for x in 0..<usedWidth { columns[x] &+= UInt16(next[x]) }
                        }
                        let row = out + y &* outWidth
                        // The common factors spelled out, so that their loops have a fixed stride.
                        func store(_ x: Int, _ sum: UInt32) {
                            row[x] = UInt8(truncatingIfNeeded: min(255, (sum &* reciprocal) &>> 16))
                        }
                        switch factor {
                        case 3:
                            for x in 0..<outWidth {
                                let block = columns + 3 &* x
                                store(x, UInt32(block[0]) &+ UInt32(block[1]) &+ UInt32(block[2]))
                            }
                        case 4:
                            for x in 0..<outWidth {
                                let block = columns + 4 &* x
                                store(
                                    x, UInt32(block[0]) &+ UInt32(block[1]) &+ UInt32(block[2]) &+ UInt32(block[3]))
                            }
                        default:
                            for x in 0..<outWidth {
                                let block = columns + x &* factor
                                var sum: UInt32 = 0
                                for dx in 0..<factor { sum &+= UInt32(block[dx]) }
                                store(x, sum)
                            }
                        }
                    }
                }
            }
        }
        target = GrayImage(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// `target`'s pixel storage, `count` long, taken out of it (so it stays uniquely referenced) for reuse.
    private static func takeStorage(of target: inout GrayImage, count: Int) -> [UInt8] {
        var pixels = target.pixels
        target = GrayImage(width: 0, height: 0, pixels: [])
        if pixels.count < count {
            pixels.append(contentsOf: repeatElement(0, count: count - pixels.count))
        } else {
            pixels.removeLast(pixels.count - count)
        }
        return pixels
    }

    /// `image` shrunk `halves` / 2 times, `halves` odd (1.5, 2.5, 3.5…), by averaging the area each output pixel
    /// covers: pixels on the area's edge count by half. Written into `target` (whose storage is reused); a last
    /// partial area at the right or bottom edge is dropped.
    public static func boxDownscale(_ image: GrayImage, halves: Int, into target: inout GrayImage) {
        precondition(halves > 2 && halves % 2 == 1 && halves <= 255, "half-step factor out of range")
        let (width, height) = (image.width, image.height)
        let outWidth = 2 * width / halves
        let outHeight = 2 * height / halves
        var pixels = Self.takeStorage(of: &target, count: outWidth * outHeight)
        // On a grid of half pixels every output pixel is a `halves` × `halves` block; the half row (column) v is
        // the image's row (column) v / 2. Sums as in `boxDownscale(_:by:into:)`: at most 255 × halves² < 2³².
        let reciprocal = UInt32(((1 << 16) + halves * halves / 2) / (halves * halves))
        let usedWidth = (outWidth * halves + 1) / 2
        let sourceWidth = width
        var columns = [UInt16](repeating: 0, count: usedWidth)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { out in
                columns.withUnsafeMutableBufferPointer { columns in
                    guard let source = source.baseAddress, let out = out.baseAddress,
                        let columns = columns.baseAddress
                    else { return }
                    for y in 0..<outHeight {
                        columns.update(repeating: 0, count: usedWidth)
                        for half in (y &* halves)..<((y &+ 1) &* halves) {
                            let row = source + (half &>> 1) &* sourceWidth
                            for x in 0..<usedWidth { columns[x] &+= UInt16(row[x]) }
                        }
                        let row = out + y &* outWidth
                        func store(_ x: Int, _ sum: UInt32) {
                            row[x] = UInt8(truncatingIfNeeded: min(255, (sum &* reciprocal) &>> 16))
                        }
                        // Two output pixels span `halves` whole columns: the first takes `whole` of them twice and
                        // the middle one once, the second the middle one once and the rest twice.
                        @inline(__always) func pairs(whole: Int) {
                            for pair in 0..<outWidth / 2 {
                                let block = columns + pair &* halves
                                var left: UInt32 = 0
                                var right: UInt32 = 0
                                for i in 0..<whole {
                                    left &+= UInt32(block[i])
                                    right &+= UInt32(block[whole &+ 1 &+ i])
                                }
                                let middle = UInt32(block[whole])
                                store(2 &* pair, 2 &* left &+ middle)
                                store(2 &* pair &+ 1, middle &+ 2 &* right)
                            }
                            if outWidth % 2 == 1 {
                                let block = columns + (outWidth / 2) &* halves
                                var left: UInt32 = 0
                                for i in 0..<whole { left &+= UInt32(block[i]) }
                                store(outWidth &- 1, 2 &* left &+ UInt32(block[whole]))
                            }
                        }
                        // The common factors spelled out, so that their loops unroll.
                        switch halves {
                        case 3: pairs(whole: 1)
                        case 5: pairs(whole: 2)
                        case 7: pairs(whole: 3)
                        default: pairs(whole: halves / 2)
                        }
                    }
                }
            }
        }
        target = GrayImage(width: outWidth, height: outHeight, pixels: pixels)
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
