import QRDecoding

/// A camera-like picture of codes lying on a desk, for the decoder's region and pipeline tests.
public enum DeskPicture {
    /// A `width` × `height` desk (gray 104–116, sensor-like noise from a fixed seed) with `codes` drawn at their
    /// top-left corners, each blurred once (box radius 1) as a lens would.
    public static func make(width: Int, height: Int, codes: [(image: GrayImage, x: Int, y: Int)]) -> GrayImage {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var pixels = [UInt8](repeating: 0, count: width * height)
        for index in pixels.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            pixels[index] = UInt8(104 + Int(state % 13))
        }
        for code in codes {
            let blurred = BoxBlur.blurred(code.image, radius: 1)
            for y in 0..<blurred.height {
                for x in 0..<blurred.width {
                    pixels[(code.y + y) * width + code.x + x] = blurred.pixels[y * blurred.width + x]
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }
}
