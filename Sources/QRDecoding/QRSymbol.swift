/// One QR code found in an image: its payload, how the payload was read as text, and where the code is.
public struct QRSymbol: Sendable, Hashable {
    /// The raw payload bytes (zbar binary mode), leading UTF-8 BOM stripped.
    ///
    /// For a code that declares its charset with an ECI, zbar has already converted these bytes to UTF-8.
    public var bytes: [UInt8]
    /// `bytes` decoded as `encoding`.
    public var text: String
    /// "UTF-8", "Shift_JIS" or "ISO-8859-1": the first of these the bytes are valid in.
    public var encoding: String
    /// zbar's location polygon, in the coordinates of the image that was decoded.
    public var corners: [Point]
    /// zbar's relative confidence (`zbar_symbol_get_quality`); larger is better.
    public var quality: Int
    /// The name of the `QRDecoder` pass that found the code ("original" unless a recovery pass was needed).
    public var pass: String

    public init(
        bytes: [UInt8], text: String, encoding: String, corners: [Point], quality: Int, pass: String = "original"
    ) {
        self.bytes = bytes
        self.text = text
        self.encoding = encoding
        self.corners = corners
        self.quality = quality
        self.pass = pass
    }

    /// A symbol whose text is decoded from `payload` by `PayloadText`.
    init(payload: [UInt8], corners: [Point], quality: Int) {
        let decoded = PayloadText(payload)
        self.init(
            bytes: decoded.bytes, text: decoded.text, encoding: decoded.encoding.rawValue, corners: corners,
            quality: quality)
    }

    /// This symbol with its corners moved by `map` (from the image a pass scanned to the one it reports in).
    func mapped(by map: AffineMap) -> QRSymbol {
        var symbol = self
        symbol.corners = corners.map(map.apply)
        return symbol
    }
}
