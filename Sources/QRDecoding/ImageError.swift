/// Why PNG bytes could not become a `GrayImage`, or a `GrayImage` could not become PNG bytes.
public enum ImageError: Error, Sendable, Hashable {
    /// libpng rejected the bytes; `reason` is libpng's own message, e.g. "Not a PNG file" or "IDAT: CRC error".
    case unreadable(reason: String)
    /// The header claims more than `limit` pixels; refused before any pixel memory is allocated.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The writer side (libpng or libqrencode) failed.
    case cannotEncode(reason: String)
}
