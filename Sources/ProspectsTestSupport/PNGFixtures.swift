import QRDecoding

/// PNG files with QR codes in them, built in memory for tests: real PNG bytes for real libpng and zbar.
///
/// Codes are drawn by libqrencode and written by libpng (`QRCodeImage`, `PNGWriter`). `encode(_:as:)` writes
/// the flavours libpng's simplified write API cannot (1/2/4-bit, palette + tRNS, gAMA, Adam7 interlacing)
/// with a small PNG encoder of its own (stored deflate blocks), so every colour type can be tested without tools.
public enum PNGFixtures {
    /// The PNG of one black-on-white code carrying the UTF-8 bytes of `text`.
    public static func contactCode(_ text: String, moduleSize: Int = 4, margin: Int = 4) -> [UInt8] {
        png(codeImage(text, moduleSize: moduleSize, margin: margin))
    }

    /// The gray image of one black-on-white code carrying the UTF-8 bytes of `text`.
    public static func codeImage(_ text: String, moduleSize: Int = 4, margin: Int = 4) -> GrayImage {
        codeImage(bytes: Array(text.utf8), moduleSize: moduleSize, margin: margin)
    }

    /// The gray image of one code carrying exactly `bytes` (e.g. Shift_JIS or Latin-1 payloads).
    public static func codeImage(bytes: [UInt8], moduleSize: Int = 4, margin: Int = 4) -> GrayImage {
        do {
            return try QRCodeImage.make(bytes: bytes, moduleSize: moduleSize, margin: margin)
        } catch {
            fatalError("PNGFixtures: cannot draw a code for \(bytes.count) bytes: \(error)")
        }
    }

    /// Two codes side by side on one white image, `first` on the left.
    public static func twoCodes(_ first: String, _ second: String, moduleSize: Int = 4) -> [UInt8] {
        let left = codeImage(first, moduleSize: moduleSize)
        let right = codeImage(second, moduleSize: moduleSize)
        let width = left.width + right.width
        let height = max(left.height, right.height)
        var pixels = [UInt8](repeating: 255, count: width * height)
        for y in 0..<height {
            if y < left.height {
                pixels.replaceSubrange(
                    y * width..<y * width + left.width, with: left.pixels[y * left.width..<(y + 1) * left.width])
            }
            if y < right.height {
                let start = y * width + left.width
                pixels.replaceSubrange(
                    start..<start + right.width, with: right.pixels[y * right.width..<(y + 1) * right.width])
            }
        }
        return png(GrayImage(width: width, height: height, pixels: pixels))
    }

    /// A light-on-dark code (every pixel inverted), as some phone screens and dark badges show it.
    public static func inverted(_ text: String, moduleSize: Int = 4) -> [UInt8] {
        var image = codeImage(text, moduleSize: moduleSize)
        for index in image.pixels.indices { image.pixels[index] = 255 - image.pixels[index] }
        return png(image)
    }

    /// A valid PNG start (signature, IHDR, a tiny IDAT, IEND; about 60 bytes, correct CRCs) whose header claims
    /// `width` × `height` 8-bit gray pixels: a decompression bomb's calling card.
    public static func hugeDimensionsHeader(width: UInt32 = 30_000, height: UInt32 = 30_000) -> [UInt8] {
        var out = signature
        out += chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 0, 0, 0, 0])
        out += chunk("IDAT", [0x78, 0x9C, 0x03, 0x00])  // the start of a zlib stream; never inflated
        out += chunk("IEND", [])
        return out
    }

    /// `png` with its first IDAT's stored CRC flipped: the data inflates fine, the checksum does not match.
    public static func corruptingIDATChecksum(_ png: [UInt8]) -> [UInt8] {
        var out = png
        let (offset, length) = firstIDAT(in: png)
        out[offset + 8 + length] ^= 0xFF
        return out
    }

    /// `png` with one byte in the middle of its first IDAT's data flipped (the CRC left stale).
    ///
    /// libpng inflates a chunk before it checks its CRC, so this usually fails as a zlib error, not a CRC error.
    public static func corruptingIDATData(_ png: [UInt8]) -> [UInt8] {
        var out = png
        let (offset, length) = firstIDAT(in: png)
        out[offset + 8 + length / 2] ^= 0xFF
        return out
    }

    /// `png` (a single IDAT) with the zlib stream's Adler-32 (its last four bytes) flipped and the chunk's CRC
    /// recomputed: every chunk is intact, only the checksum of the uncompressed pixel data is wrong.
    public static func corruptingAdler32(_ png: [UInt8]) -> [UInt8] {
        var out = png
        let (offset, length) = firstIDAT(in: png)
        let data = offset + 8
        for index in data + length - 4..<data + length { out[index] ^= 0xFF }
        let crc = bigEndian(crc32(Array(out[offset + 4..<data + length])))
        out.replaceSubrange(data + length..<data + length + 4, with: crc)
        return out
    }

    private static func firstIDAT(in png: [UInt8]) -> (offset: Int, length: Int) {
        var offset = 8
        while offset + 8 <= png.count {
            let length =
                Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8
                | Int(png[offset + 3])
            if png[offset + 4..<offset + 8].elementsEqual("IDAT".utf8), length > 0 { return (offset, length) }
            offset += 12 + length
        }
        fatalError("PNGFixtures: no IDAT chunk in \(png.count) bytes")
    }

    /// PNG bytes of `image` through the project's own writer (8-bit gray).
    public static func png(_ image: GrayImage) -> [UInt8] {
        do {
            return try PNGWriter.encode(image)
        } catch {
            fatalError("PNGFixtures: PNGWriter failed: \(error)")
        }
    }

    // MARK: - Every PNG flavour

    /// A PNG colour type and bit depth. Dark pixels (< 128) are drawn black; light ones as described per case.
    public enum Flavour: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Gray at 1, 2, 4, 8 or 16 bits.
        case gray(bitDepth: Int)
        /// 8-bit gray with a tRNS key: light pixels are black and marked transparent by the key.
        case grayKeyedTransparent
        /// Gray + alpha at 8 or 16 bits: light pixels are black and fully transparent.
        case grayAlpha(bitDepth: Int)
        /// RGB at 8 or 16 bits: light pixels are a warm paper tint, dark ones navy.
        case rgb(bitDepth: Int)
        /// RGBA at 8 or 16 bits: light pixels are black and transparent, alternately fully and 80 %.
        case rgba(bitDepth: Int)
        /// A palette at 1, 2, 4 or 8 bits; with `transparency`, a tRNS chunk makes the light entry transparent black.
        case palette(bitDepth: Int, transparency: Bool)

        public static let allCases: [Flavour] =
            [1, 2, 4, 8, 16].map { .gray(bitDepth: $0) } + [.grayKeyedTransparent]
            + [8, 16].flatMap { [.grayAlpha(bitDepth: $0), .rgb(bitDepth: $0), .rgba(bitDepth: $0)] }
            + [1, 2, 4, 8].flatMap {
                [.palette(bitDepth: $0, transparency: false), .palette(bitDepth: $0, transparency: true)]
            }

        public var description: String {
            switch self {
            case .gray(let depth): "gray \(depth)-bit"
            case .grayKeyedTransparent: "gray 8-bit + tRNS key"
            case .grayAlpha(let depth): "gray+alpha \(depth)-bit"
            case .rgb(let depth): "RGB \(depth)-bit"
            case .rgba(let depth): "RGBA \(depth)-bit"
            case .palette(let depth, let transparency): "palette \(depth)-bit\(transparency ? " + tRNS" : "")"
            }
        }

        var colourType: UInt8 {
            switch self {
            case .gray, .grayKeyedTransparent: 0
            case .rgb: 2
            case .palette: 3
            case .grayAlpha: 4
            case .rgba: 6
            }
        }

        var bitDepth: Int {
            switch self {
            case .gray(let depth), .grayAlpha(let depth), .rgb(let depth), .rgba(let depth), .palette(let depth, _):
                depth
            case .grayKeyedTransparent: 8
            }
        }

        /// Channel samples (each 0...255, scaled to the bit depth later) for one pixel.
        func samples(dark: Bool, x: Int, y: Int) -> [Int] {
            switch self {
            case .gray: [dark ? 0 : 255]
            case .grayKeyedTransparent: [dark ? 0 : 1]  // 1 is the tRNS key; not 255, so compositing must happen
            case .grayAlpha: [0, dark ? 255 : 0]
            case .rgb: dark ? [10, 20, 80] : [250, 240, 205]
            case .rgba: [0, 0, 0, dark ? 255 : ((x + y) % 2 == 0 ? 0 : 51)]
            case .palette: [dark ? 0 : 1]  // palette index
            }
        }
    }

    /// `image` written as a PNG of the given flavour, optionally Adam7-interlaced, optionally with a gAMA chunk.
    ///
    /// Bytes after `trailing` are appended after IEND (libpng must ignore them).
    public static func encode(
        _ image: GrayImage, as flavour: Flavour, interlaced: Bool = false, gamma: Bool = false,
        trailing: [UInt8] = []
    ) -> [UInt8] {
        let depth = flavour.bitDepth
        var out = signature
        out += chunk(
            "IHDR",
            bigEndian(UInt32(image.width)) + bigEndian(UInt32(image.height))
                + [UInt8(depth), flavour.colourType, 0, 0, interlaced ? 1 : 0])
        if gamma { out += chunk("gAMA", bigEndian(45_455)) }  // 1/2.2, what most cameras declare
        switch flavour {
        case .palette(_, let transparency):
            // Entry 1, the light one, is black: only correct tRNS handling plus a white background makes it light.
            out += chunk("PLTE", transparency ? [0, 0, 0, 0, 0, 0] : [0, 0, 0, 255, 255, 255])
            if transparency { out += chunk("tRNS", [255, 0]) }
        case .grayKeyedTransparent:
            out += chunk("tRNS", [0, 1])
        default:
            break
        }
        out += chunk("IDAT", zlibStored(scanlines(image, flavour: flavour, interlaced: interlaced)))
        out += chunk("IEND", [])
        return out + trailing
    }

    /// An ancillary chunk that changes how libpng turns RGB into gray.
    public enum ColourChunk: Sendable, Hashable, CustomStringConvertible {
        /// gAMA with this gamma × 100 000 (45 455 is 1/2.2).
        case gamma(UInt32)
        /// sRGB, perceptual intent.
        case sRGB
        /// cHRM with sRGB's primaries and white point, as ImageMagick writes it.
        case sRGBPrimaries
        /// cHRM with Adobe RGB's primaries: rgb_to_gray weights other than libpng's defaults.
        case adobePrimaries
        /// tRNS: this 8-bit colour is transparent.
        case transparent(red: UInt8, green: UInt8, blue: UInt8)

        public var description: String {
            switch self {
            case .gamma(let value): "gAMA \(value)"
            case .sRGB: "sRGB"
            case .sRGBPrimaries: "cHRM sRGB"
            case .adobePrimaries: "cHRM Adobe RGB"
            case .transparent(let red, let green, let blue): "tRNS \(red),\(green),\(blue)"
            }
        }

        var chunk: [UInt8] {
            switch self {
            case .gamma(let value):
                PNGFixtures.chunk("gAMA", bigEndian(value))
            case .sRGB:
                PNGFixtures.chunk("sRGB", [0])
            case .sRGBPrimaries:
                PNGFixtures.chunk(
                    "cHRM", [31_270, 32_900, 64_000, 33_000, 30_000, 60_000, 15_000, 6_000].flatMap(bigEndian))
            case .adobePrimaries:
                PNGFixtures.chunk(
                    "cHRM", [31_270, 32_900, 64_000, 33_000, 21_000, 71_000, 15_000, 6_000].flatMap(bigEndian))
            case .transparent(let red, let green, let blue):
                PNGFixtures.chunk("tRNS", [0, red, 0, green, 0, blue])
            }
        }
    }

    /// An 8-bit RGB PNG (not interlaced) with `chunks` before its pixels; `pixel(x, y)` gives each pixel's samples.
    public static func rgb8(
        width: Int, height: Int, chunks: [ColourChunk] = [], pixel: (_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8)
    ) -> [UInt8] {
        let rowBytes = 1 + 3 * width
        var data = [UInt8](repeating: 0, count: rowBytes * height)  // filter type None on every row
        data.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    let (red, green, blue) = pixel(x, y)
                    let at = y * rowBytes + 1 + 3 * x
                    (buffer[at], buffer[at + 1], buffer[at + 2]) = (red, green, blue)
                }
            }
        }
        var out = signature
        out += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0])
        for extra in chunks { out += extra.chunk }
        out += chunk("IDAT", zlibStored(data))
        out += chunk("IEND", [])
        return out
    }

    /// An 8-bit gray (`channels` 1) or RGB (3) PNG, not interlaced, of `samples` (row-major), row `y` filtered with
    /// `filters[y % filters.count]` (PNG's filter types 0–4; another value is written as it is, a broken file), its
    /// zlib stream cut into IDAT chunks of `chunkSize` bytes; `trailing` bytes follow the stream in the last chunk.
    public static func filtered(
        width: Int, height: Int, channels: Int, samples: [UInt8], filters: [UInt8], chunkSize: Int,
        trailing: [UInt8] = []
    ) -> [UInt8] {
        let rowBytes = width * channels
        var data: [UInt8] = []
        data.reserveCapacity((rowBytes + 1) * height)
        for y in 0..<height {
            let filter = filters[y % filters.count]
            data.append(filter)
            for x in 0..<rowBytes {
                let value = Int(samples[y * rowBytes + x])
                let left = x >= channels ? Int(samples[y * rowBytes + x - channels]) : 0
                let above = y > 0 ? Int(samples[(y - 1) * rowBytes + x]) : 0
                let corner = x >= channels && y > 0 ? Int(samples[(y - 1) * rowBytes + x - channels]) : 0
                let predicted: Int
                switch filter {
                case 1: predicted = left
                case 2: predicted = above
                case 3: predicted = (left + above) / 2
                case 4:
                    let (pa, pb, pc) = (abs(above - corner), abs(left - corner), abs(left + above - 2 * corner))
                    predicted = pa <= pb && pa <= pc ? left : (pb <= pc ? above : corner)
                default: predicted = 0
                }
                data.append(UInt8(truncatingIfNeeded: value - predicted))
            }
        }
        let stream = zlibStored(data) + trailing
        var out = signature
        out += chunk(
            "IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, channels == 3 ? 2 : 0, 0, 0, 0])
        for start in stride(from: 0, to: stream.count, by: max(1, chunkSize)) {
            out += chunk("IDAT", Array(stream[start..<min(stream.count, start + chunkSize)]))
        }
        out += chunk("IEND", [])
        return out
    }

    private static func scanlines(_ image: GrayImage, flavour: Flavour, interlaced: Bool) -> [UInt8] {
        // Adam7 passes: (x start, y start, x step, y step); a non-interlaced image is one pass over everything.
        let passes =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        let depth = flavour.bitDepth
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let columns = Array(stride(from: x0, to: image.width, by: dx))
            let rows = Array(stride(from: y0, to: image.height, by: dy))
            guard !columns.isEmpty, !rows.isEmpty else { continue }  // empty passes have no scanlines at all
            for y in rows {
                out.append(0)  // filter type None
                var bits = BitWriter()
                for x in columns {
                    let dark = image.pixels[y * image.width + x] < 128
                    for sample in flavour.samples(dark: dark, x: x, y: y) {
                        switch depth {
                        case 16:
                            bits.append(sample * 257, width: 16)
                        case 8:
                            bits.append(sample, width: 8)
                        default:  // gray values and palette indices, scaled to the depth
                            let value = flavour.colourType == 3 ? sample : sample * ((1 << depth) - 1) / 255
                            bits.append(value, width: depth)
                        }
                    }
                }
                out += bits.finish()
            }
        }
        return out
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var current = 0
        var used = 0

        mutating func append(_ value: Int, width: Int) {
            for shift in stride(from: width - 1, through: 0, by: -1) {
                current = current << 1 | (value >> shift & 1)
                used += 1
                if used == 8 {
                    bytes.append(UInt8(current))
                    (current, used) = (0, 0)
                }
            }
        }

        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(current << (8 - used))) }
            return bytes
        }
    }

    // MARK: - PNG and zlib framing

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    /// A zlib stream of uncompressed (stored) deflate blocks: valid, simple, and nothing to get wrong.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, data.count - start)
            let final: UInt8 = start + count == data.count ? 1 : 0
            out.append(final)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            out += data[start..<start + count]
            start += count
        } while start < data.count
        return out + bigEndian(adler32(data))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var c = UInt32(index)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
