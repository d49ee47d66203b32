import CQREncode
import QRDecoding

#if canImport(Glibc)
    import Glibc
#endif

/// QR codes at the format's limit, which `QRCodeImage` (error correction level M, ≤ 2,331 bytes) cannot draw.
public enum LargestCode {
    /// The most bytes one QR code holds: version 40, error correction level L, 8-bit mode.
    public static let capacity = 2_953

    /// A black-on-white code of `bytes` (up to `capacity`) at error correction level L, as PNG bytes.
    /// The corresponding C function is `QRcode_encodeData`.
    public static func png(bytes: [UInt8], moduleSize: Int = 3, margin: Int = 4) -> [UInt8] {
        let made = bytes.withUnsafeBufferPointer { QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, QR_ECLEVEL_L) }
        guard let code = made else {
            fatalError("LargestCode: libqrencode refused \(bytes.count) bytes (errno \(errno))")
        }
        defer { QRcode_free(code) }
        let modules = Int(code.pointee.width)
        let side = (modules + 2 * margin) * moduleSize
        var pixels = [UInt8](repeating: 255, count: side * side)
        for row in 0..<modules {
            for column in 0..<modules where code.pointee.data[row * modules + column] & 0x01 != 0 {
                for y in 0..<moduleSize {
                    let start = ((row + margin) * moduleSize + y) * side + (column + margin) * moduleSize
                    for x in 0..<moduleSize { pixels[start + x] = 0 }
                }
            }
        }
        return PNGFixtures.png(GrayImage(width: side, height: side, pixels: pixels))
    }
}
