/// Adds a white border around an image, so a code cropped to its edge gets the quiet zone zbar looks for.
///
/// zbar recognises a finder pattern by its 1:1:3:1:1 run lengths along a scan line; a code that touches the
/// image border lacks the leading light run and is not found, whatever its quality.
public enum QuietZone {
    /// `image` inside a border of `border` pixels of `value` (white by default) on every side.
    public static func padded(_ image: GrayImage, by border: Int, value: UInt8 = 255) -> GrayImage {
        precondition(border >= 0, "border must not be negative")
        guard border > 0 else { return image }
        let width = image.width
        let outWidth = width + 2 * border
        let outHeight = image.height + 2 * border
        var out = [UInt8](repeating: value, count: outWidth * outHeight)
        out.withUnsafeMutableBufferPointer { target in
            image.pixels.withUnsafeBufferPointer { source in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                for y in 0..<image.height {
                    (to + (y + border) * outWidth + border).update(from: from + y * width, count: width)
                }
            }
        }
        return GrayImage(width: outWidth, height: outHeight, pixels: out)
    }
}
