import CQREncode
import Glibc

/// Draws a QR code (the app's "Me" card): payload → QR symbol → black-on-white `GrayImage`.
public enum QRCodeImage {
    /// A code carrying the exact UTF-8 bytes of `text`, `moduleSize` pixels per module, `margin` modules of quiet zone.
    public static func make(text: String, moduleSize: Int = 8, margin: Int = 4) throws(EncodeError) -> GrayImage {
        try make(bytes: Array(text.utf8), moduleSize: moduleSize, margin: margin)
    }

    /// A code carrying exactly `bytes` in one 8-bit segment, error correction level M.
    ///
    /// With `eci` (e.g. 26 for UTF-8, 20 for Shift_JIS) the segment is preceded by that ECI header, telling
    /// readers the charset; note that zbar then converts the payload to UTF-8 even in binary mode.
    /// The corresponding C functions are `QRcode_encodeData`, or `QRinput_appendECIheader` and `QRcode_encodeInput`.
    public static func make(
        bytes: [UInt8], eci: UInt32? = nil, moduleSize: Int = 8, margin: Int = 4
    ) throws(EncodeError) -> GrayImage {
        guard moduleSize >= 1, margin >= 0 else {
            throw EncodeError(reason: "module size \(moduleSize) and margin \(margin) must be ≥ 1 and ≥ 0")
        }
        guard !bytes.isEmpty else { throw EncodeError(reason: "empty payload") }
        let code = try encode(bytes, eci: eci).get()
        defer { QRcode_free(code) }
        return render(modules: Int(code.pointee.width), data: code.pointee.data, moduleSize: moduleSize, margin: margin)
    }

    /// The one place that calls libqrencode and turns its NULL + errno into an `EncodeError`.
    private static func encode(_ bytes: [UInt8], eci: UInt32?) -> Result<UnsafeMutablePointer<QRcode>, EncodeError> {
        let code: UnsafeMutablePointer<QRcode>? = bytes.withUnsafeBufferPointer { buffer in
            guard let eci else {
                // 8-bit mode throughout: QRcode_encodeString would re-split the bytes into numeric/kanji segments.
                return QRcode_encodeData(Int32(buffer.count), buffer.baseAddress, 0, QR_ECLEVEL_M)
            }
            guard let input = QRinput_new2(0, QR_ECLEVEL_M) else { return nil }
            defer { QRinput_free(input) }
            guard QRinput_appendECIheader(input, eci) == 0,
                QRinput_append(input, QR_MODE_8, Int32(buffer.count), buffer.baseAddress) == 0
            else { return nil }
            return QRcode_encodeInput(input)
        }
        if let code { return .success(code) }
        // libqrencode reports through errno: ERANGE means the payload does not fit in version 40.
        let error = errno
        return .failure(
            EncodeError(
                reason: error == ERANGE
                    ? "payload of \(bytes.count) bytes is too large for a QR code"
                    : "libqrencode failed: \(String(cString: strerror(error)))"))
    }

    private static func render(
        modules: Int, data: UnsafeMutablePointer<UInt8>, moduleSize: Int, margin: Int
    ) -> GrayImage {
        let side = (modules + 2 * margin) * moduleSize
        var pixels = [UInt8](repeating: 255, count: side * side)
        pixels.withUnsafeMutableBufferPointer { out in
            for row in 0..<modules {
                for column in 0..<modules where data[row * modules + column] & 0x01 != 0 {  // bit 0: dark module
                    let x0 = (column + margin) * moduleSize
                    let y0 = (row + margin) * moduleSize
                    for y in y0..<(y0 + moduleSize) {
                        out.baseAddress!.advanced(by: y * side + x0).update(repeating: 0, count: moduleSize)
                    }
                }
            }
        }
        return GrayImage(width: side, height: side, pixels: pixels)
    }
}
