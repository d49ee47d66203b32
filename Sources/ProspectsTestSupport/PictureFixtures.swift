import Foundation

/// Real JPEG, HEIC, AVIF, WebP, GIF, TIFF and BMP files made from a PNG at test time by Debian's own encoders
/// (libjpeg-turbo's cjpeg, ImageMagick, cwebp, heif-enc; `Scripts/install-dependencies --test` installs them).
public enum PictureFixtures {
    /// Why an encoder could not run; its description is the whole message, install hint included.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// One way of writing a picture, and the tool that does it.
    public enum Conversion: String, CaseIterable, Sendable, CustomStringConvertible {
        case jpegBaseline, jpegProgressive, jpegGray, jpegRestartMarkers, jpegCMYK, jpegArithmetic
        case webpLossy, webpLossless
        case heic, heic10Bit, avif
        case gif, tiff, bmp

        public var description: String { rawValue }

        /// The conversions into formats Prospects reads.
        public static let readable: [Conversion] = [
            .jpegBaseline, .jpegProgressive, .jpegGray, .jpegRestartMarkers, .jpegCMYK, .jpegArithmetic, .webpLossy,
            .webpLossless, .heic, .heic10Bit, .avif,
        ]

        public var fileExtension: String {
            switch self {
            case .jpegBaseline, .jpegProgressive, .jpegGray, .jpegRestartMarkers, .jpegCMYK, .jpegArithmetic: "jpg"
            case .webpLossy, .webpLossless: "webp"
            case .heic, .heic10Bit: "heic"
            case .avif: "avif"
            case .gif: "gif"
            case .tiff: "tif"
            case .bmp: "bmp"
            }
        }

        /// A shell command reading `in.png` and writing `out.<extension>` in the current folder.
        var command: String {
            let ppm = "\(PictureFixtures.convert) in.png ppm:- | cjpeg"
            // heif-enc's AV1 encoder asserts on 1-bit and gray PNGs: give it 8-bit RGB.
            let rgb = "\(PictureFixtures.convert) in.png PNG24:rgb.png && heif-enc"
            return switch self {
            case .jpegBaseline: "\(ppm) -quality 90 > out.jpg"
            case .jpegProgressive: "\(ppm) -progressive -quality 85 > out.jpg"
            case .jpegGray: "\(ppm) -grayscale -quality 90 > out.jpg"
            case .jpegRestartMarkers: "\(ppm) -restart 1 -quality 90 > out.jpg"
            case .jpegArithmetic: "\(ppm) -arithmetic -quality 90 > out.jpg"
            case .jpegCMYK: "\(PictureFixtures.convert) in.png -colorspace CMYK -quality 90 out.jpg"
            case .webpLossy: "cwebp -quiet -q 80 in.png -o out.webp"
            case .webpLossless: "cwebp -quiet -lossless in.png -o out.webp"
            case .heic: "\(rgb) -q 80 rgb.png -o out.heic > /dev/null"
            case .heic10Bit: "\(rgb) -b 10 -q 80 rgb.png -o out.heic > /dev/null"
            case .avif: "\(rgb) -A -q 80 rgb.png -o out.avif > /dev/null"
            case .gif, .tiff, .bmp: "\(PictureFixtures.convert) in.png out.\(fileExtension)"
            }
        }
    }

    /// Debian's ImageMagick, not whatever `convert` comes first on PATH.
    static let convert = "/usr/bin/convert"

    /// The bytes of `png` written as `conversion` says.
    public static func convert(_ png: [UInt8], _ conversion: Conversion) throws -> [UInt8] {
        try run(conversion.command, input: png, output: "out.\(conversion.fileExtension)")
    }

    /// `jpeg` transformed losslessly by `jpegtran` with `arguments` (e.g. `-rotate 90`, `-flip horizontal`).
    public static func jpegtran(_ jpeg: [UInt8], _ arguments: String) throws -> [UInt8] {
        try run("jpegtran -copy none \(arguments) in.png > out.jpg", input: jpeg, output: "out.jpg")
    }

    /// `jpeg` with an APP1 EXIF segment right after its SOI marker, whose only tag is `orientation` (1…8).
    public static func withOrientation(_ jpeg: [UInt8], _ orientation: UInt16, bigEndian: Bool = false) -> [UInt8] {
        func short(_ value: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func long(_ value: UInt32) -> [UInt8] {
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            return bigEndian ? bytes.reversed() : bytes
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += short(42) + long(8)
        // One IFD entry: tag 0x0112, type SHORT, count 1, the value in the first two bytes of the value field.
        tiff += short(1) + short(0x0112) + short(3) + long(1) + short(orientation) + [0, 0] + long(0)
        let body: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
        return Array(jpeg.prefix(2)) + segment + Array(jpeg.dropFirst(2))
    }

    private static func run(_ command: String, input: [UInt8], output: String) throws -> [UInt8] {
        let folder = try TemporaryDirectory(prefix: "prospects-picture")
        defer { folder.cleanup() }
        try Data(input).write(to: folder.url.appendingPathComponent("in.png"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "set -e; " + command]
        process.currentDirectoryURL = folder.url
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let out = folder.url.appendingPathComponent(output)
        guard process.terminationStatus == 0, let bytes = try? Data(contentsOf: out), !bytes.isEmpty else {
            throw Failure(
                description: "`\(command)` failed (status \(process.terminationStatus)): "
                    + "\(String(decoding: message, as: UTF8.self)); run Scripts/install-dependencies --test")
        }
        return [UInt8](bytes)
    }
}
