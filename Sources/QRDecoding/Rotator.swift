import Glibc

/// Rotates a gray image by any angle (bilinear), for codes that zbar misses at the angle they were shot.
///
/// zbar looks for finder patterns along horizontal and vertical scan lines. Round or dotted finder patterns,
/// and codes whose module edges are jagged, can give clean 1:1:3:1:1 runs only along other directions; at 45°
/// every scan line crosses the code diagonally instead.
public enum Rotator {
    /// `image` turned `degrees` counter-clockwise (as seen on screen, y downwards) about its centre, on a canvas
    /// just large enough to hold it, the corners filled with white; and the map from the result's coordinates
    /// back to `image`'s.
    public static func rotated(_ image: GrayImage, degrees: Double) -> (image: GrayImage, toSource: AffineMap) {
        let width = image.width
        let height = image.height
        guard width > 1, height > 1 else { return (image, .identity) }
        let radians = degrees * Double.pi / 180
        let cosine = cos(radians)
        let sine = sin(radians)
        let outWidth = Int((Double(width) * abs(cosine) + Double(height) * abs(sine)).rounded(.up))
        let outHeight = Int((Double(width) * abs(sine) + Double(height) * abs(cosine)).rounded(.up))
        // Output pixel centre → source position: undo the rotation about the two images' centres.
        let toSource = AffineMap.translation(Double(width) / 2, Double(height) / 2)
            .after(AffineMap(a: cosine, b: -sine, c: 0, d: sine, e: cosine, f: 0))
            .after(.translation(-Double(outWidth) / 2, -Double(outHeight) / 2))
        // Fixed point, 8 fractional bits: the inner loop adds two constants per pixel and blends four bytes.
        let one = 256.0
        let stepX = (Int((toSource.a * one).rounded()), Int((toSource.d * one).rounded()))
        let limitX = (width - 1) << 8
        let limitY = (height - 1) << 8
        let out = [UInt8](unsafeUninitializedCapacity: outWidth * outHeight) { buffer, count in
            image.pixels.withUnsafeBufferPointer { source in
                for outY in 0..<outHeight {
                    // Source position of this row's first pixel centre, minus half a pixel: pixel centres are at +0.5.
                    var sx = Int(
                        ((toSource.b * (Double(outY) + 0.5) + toSource.a * 0.5 + toSource.c - 0.5) * one).rounded())
                    var sy = Int(
                        ((toSource.e * (Double(outY) + 0.5) + toSource.d * 0.5 + toSource.f - 0.5) * one).rounded())
                    let outRow = outY * outWidth
                    for outX in 0..<outWidth {
                        defer {
                            sx += stepX.0
                            sy += stepX.1
                        }
                        guard sx >= 0, sy >= 0, sx < limitX, sy < limitY else {
                            buffer[outRow + outX] = 255
                            continue
                        }
                        let x0 = sx >> 8
                        let y0 = sy >> 8
                        let fx = sx & 255
                        let fy = sy & 255
                        let top = y0 * width + x0
                        let upper = Int(source[top]) * (256 - fx) + Int(source[top + 1]) * fx
                        let lower = Int(source[top + width]) * (256 - fx) + Int(source[top + width + 1]) * fx
                        buffer[outRow + outX] = UInt8((upper * (256 - fy) + lower * fy + 32768) >> 16)
                    }
                }
            }
            count = outWidth * outHeight
        }
        return (GrayImage(width: outWidth, height: outHeight, pixels: out), toSource)
    }
}
