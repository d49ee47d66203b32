import CQREncode
import Glibc

/// Draws a QR code (the app's "Me" card): payload → QR symbol → black-on-white `GrayImage`.
public enum QRCodeImage {
    /// A code carrying the exact UTF-8 bytes of `text`, `moduleSize` pixels per module, `margin` modules of quiet zone.
    public static func make(text: String, moduleSize: Int = 8, margin: Int = 4) throws(ImageError) -> GrayImage {
        try make(bytes: Array(text.utf8), moduleSize: moduleSize, margin: margin)
    }

    /// A code carrying exactly `bytes` in 8-bit mode, error correction level M, no ECI.
    ///
    /// The corresponding C function is `QRcode_encodeData` (8-bit mode only, so no byte is reinterpreted).
    public static func make(bytes: [UInt8], moduleSize: Int = 8, margin: Int = 4) throws(ImageError) -> GrayImage {
        guard moduleSize >= 1, margin >= 0 else {
            throw .cannotEncode(reason: "module size \(moduleSize) and margin \(margin) must be ≥ 1 and ≥ 0")
        }
        guard !bytes.isEmpty else { throw .cannotEncode(reason: "empty payload") }
        let code = bytes.withUnsafeBufferPointer { buffer in
            QRcode_encodeData(Int32(buffer.count), buffer.baseAddress, 0, QR_ECLEVEL_M)
        }
        guard let code else {
            // libqrencode reports through errno: ERANGE means the payload does not fit in version 40.
            let code = errno
            throw .cannotEncode(
                reason: code == ERANGE
                    ? "payload of \(bytes.count) bytes is too large for a QR code"
                    : "libqrencode failed: \(String(cString: strerror(code)))")
        }
        defer { QRcode_free(code) }
        let modules = Int(code.pointee.width)
        return render(modules: modules, data: code.pointee.data, moduleSize: moduleSize, margin: margin)
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
