/// Why picture bytes could not be searched for QR codes. Finding no code is not an error: it is `[]`.
///
/// The one error of reading and scanning: each image reader and the zbar scanner throw it directly.
public enum DecodeError: Error, Sendable, Hashable {
    /// The bytes are no picture Prospects reads; `UnsupportedFormat` says what they are instead.
    case unsupportedFormat(UnsupportedFormat)
    /// The format's library refused the bytes; `reason` is its own message, e.g. "IDAT: CRC error".
    case unreadableImage(format: ImageFormat = .png, reason: String)
    /// The bytes end before the picture does: a file cut short, or one still being written.
    case truncatedImage(format: ImageFormat)
    /// The header claims more than `limit` pixels; refused before any pixel memory is allocated.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// zbar itself failed: `zbar_scan_image` returned -1, or the image could not be handed to it. `format` is the
    /// picture's (`QRDecoder.decode` adds it); nil for pixels scanned directly.
    case scanFailed(format: ImageFormat? = nil, reason: String)
}

/// Why a `GrayImage` or a payload could not become a QR code or PNG bytes (libqrencode or libpng refused).
public struct EncodeError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    public init(reason: String) { self.reason = reason }

    public var description: String { reason }
}
