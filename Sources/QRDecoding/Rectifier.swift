/// Draws a code upright and square from a photo of it, given the map from its module grid to the photo.
///
/// zbar reads a straight-on code at a few pixels per module easily; tilted, sheared or seen in perspective it
/// often does not. Resampling the code onto a square grid gives zbar the easy case.
enum Rectifier {
    /// The square of module coordinates `-quietZone ..< dimension + quietZone` on each axis, `pixelsPerModule`
    /// pixels per module, sampled (bilinear) from `image` through `map` (module coordinates → `image` pixels).
    ///
    /// Module (0, 0) is the code's top-left corner. Points more than two modules outside the code, and points the
    /// map sends off the image, are white: the quiet zone zbar looks for, whatever surrounds the code in the photo.
    static func rectified(
        _ image: GrayImage, map: PerspectiveMap, dimension: Int, pixelsPerModule: Int, quietZone: Int
    ) -> GrayImage {
        let side = (dimension + 2 * quietZone) * pixelsPerModule
        guard side > 0, image.width > 0, image.height > 0 else { return GrayImage(width: 0, height: 0, pixels: []) }
        let scale = 1 / Double(pixelsPerModule)
        let low = -2.0
        let high = Double(dimension) + 2
        let width = image.width
        let height = image.height
        let out = [UInt8](unsafeUninitializedCapacity: side * side) { buffer, count in
            image.pixels.withUnsafeBufferPointer { source in
                for oy in 0..<side {
                    let my = (Double(oy) + 0.5) * scale - Double(quietZone)
                    for ox in 0..<side {
                        let mx = (Double(ox) + 0.5) * scale - Double(quietZone)
                        var value: UInt8 = 255
                        if mx >= low, mx <= high, my >= low, my <= high, let point = map.apply(mx, my) {
                            // Pixel centres sit at half-integers.
                            let fx = point.x - 0.5
                            let fy = point.y - 0.5
                            if fx > -1, fy > -1, fx < Double(width), fy < Double(height) {
                                let x0 = Int(fx.rounded(.down))
                                let y0 = Int(fy.rounded(.down))
                                let wx = fx - Double(x0)
                                let wy = fy - Double(y0)
                                let xa = max(0, x0)
                                let xb = min(width - 1, x0 + 1)
                                let ya = max(0, y0)
                                let yb = min(height - 1, y0 + 1)
                                let top =
                                    Double(source[ya * width + xa]) * (1 - wx) + Double(source[ya * width + xb]) * wx
                                let bottom =
                                    Double(source[yb * width + xa]) * (1 - wx) + Double(source[yb * width + xb]) * wx
                                value = UInt8(max(0, min(255, (top * (1 - wy) + bottom * wy).rounded())))
                            }
                        }
                        buffer[oy * side + ox] = value
                    }
                }
            }
            count = side * side
        }
        return GrayImage(width: side, height: side, pixels: out)
    }
}
