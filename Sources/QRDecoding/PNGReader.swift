import CPNG
import CPNGFast

/// Decodes PNG bytes of any flavour to 8-bit gray, refusing images over a pixel limit before allocating them.
///
/// Every colour type, bit depth, palette/tRNS and interlacing is converted by libpng's simplified API, which
/// reports errors in `png_image.message` instead of `longjmp`ing through Swift frames; alpha is composited on
/// white, the paper colour a QR code is printed on. Palette and gray files of 8 bits or fewer, and 8-bit RGB ones
/// with an sRGB gamma, not interlaced (what qrencode, scanners and cameras write), first go through a C reader on
/// libpng's classic API (`CPNGFast`, which keeps its `setjmp` in C; the pixel data inflated whole by libdeflate
/// where it fits) with table-driven conversions: the same pixels, cheaper. It hands anything it does not convert
/// exactly as the simplified API would, and any error, to the simplified API.
public struct PNGReader: Sendable {
    /// 50 MP: above any camera frame, far below what a decompression bomb would claim.
    public static let defaultPixelLimit = 50_000_000

    /// Which libpng API decoded a file.
    public enum Path: Sendable, Hashable {
        /// The classic API through `CPNGFast`: palette or gray of 8 bits or fewer, or 8-bit RGB; not interlaced.
        case classic
        /// The simplified API: everything else, and every file the classic path failed on.
        case simplified
    }

    /// The most pixels (`width * height`) an image may have.
    public let pixelLimit: Int
    /// Whether palette, gray and RGB files may take the classic path; false reads everything with the simplified API.
    public let allowsClassicPath: Bool

    public init(pixelLimit: Int = PNGReader.defaultPixelLimit, allowsClassicPath: Bool = true) {
        self.pixelLimit = pixelLimit
        self.allowsClassicPath = allowsClassicPath
    }

    /// Decodes `bytes` into a new gray image.
    ///
    /// Bytes after the `IEND` chunk are ignored (libpng stops reading at `IEND`).
    /// The corresponding C functions are `png_image_begin_read_from_memory` and `png_image_finish_read`.
    public func read(_ bytes: [UInt8]) throws(DecodeError) -> GrayImage {
        var image = GrayImage(width: 0, height: 0, pixels: [])
        try read(bytes, into: &image)
        return image
    }

    /// Decodes `bytes` into `image`, reusing its pixel storage when it is large enough.
    ///
    /// For loops over many files: one buffer serves every image. On error `image` is left empty.
    /// Returns the API that decoded the file.
    @discardableResult
    public func read(_ bytes: [UInt8], into image: inout GrayImage) throws(DecodeError) -> Path {
        var pixels = image.pixels
        image = GrayImage(width: 0, height: 0, pixels: [])  // drop our reference so `pixels` stays unique
        var path = Path.classic
        let result = bytes.withUnsafeBytes { memory in
            if allowsClassicPath, let classic = decodeClassic(memory, into: &pixels) { return classic }
            path = .simplified
            return withPNGImage { png in decode(memory, with: png, into: &pixels) }
        }
        switch result {
        case .success(let (width, height)):
            image = GrayImage(width: width, height: height, pixels: pixels)
            return path
        case .failure(let error):
            pixels.removeAll(keepingCapacity: true)  // an unreadable file should not cost the buffer
            image = GrayImage(width: 0, height: 0, pixels: pixels)
            // libpng says "read beyond end of data"; a file whose chunks end before `IEND` is cut short, as the
            // other readers say (a watcher waits for such a file to be whole before judging it).
            if case .unreadableImage = error, ImageCompleteness.of(bytes) == .incomplete {
                throw .truncatedImage(format: .png)
            }
            throw error
        }
    }

    /// The classic-API read, or nil when the simplified API must decide (unsupported flavour or any error).
    /// The pixel limit is checked after the header, before any pixel memory exists, as on the simplified path.
    private func decodeClassic(
        _ memory: UnsafeRawBufferPointer, into pixels: inout [UInt8]
    ) -> Result<(Int, Int), DecodeError>? {
        guard let base = memory.baseAddress, memory.count > 0 else { return nil }
        var reader: OpaquePointer?
        defer { prospects_png_fast_destroy(reader) }
        var width32: UInt32 = 0
        var height32: UInt32 = 0
        guard prospects_png_fast_begin(&reader, base, memory.count, &width32, &height32) == PROSPECTS_PNG_FAST_OK
        else { return nil }
        let width = Int(width32)
        let height = Int(height32)
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= pixelLimit else {
            return .failure(.imageTooLarge(width: width, height: height, limit: pixelLimit))
        }
        Self.resize(&pixels, to: count)
        let finished = pixels.withUnsafeMutableBufferPointer { buffer in
            prospects_png_fast_finish(reader, buffer.baseAddress)
        }
        return finished == PROSPECTS_PNG_FAST_OK ? .success((width, height)) : nil
    }

    /// Makes `pixels` exactly `count` long, keeping its capacity for the next, larger image.
    private static func resize(_ pixels: inout [UInt8], to count: Int) {
        if pixels.count < count {
            pixels.append(contentsOf: repeatElement(0, count: count - pixels.count))
        } else if pixels.count > count {
            pixels.removeLast(pixels.count - count)
        }
    }

    private func decode(
        _ memory: UnsafeRawBufferPointer, with png: UnsafeMutablePointer<png_image>, into pixels: inout [UInt8]
    ) -> Result<(Int, Int), DecodeError> {
        // libpng answers a NULL pointer or 0 length with "invalid argument"; say what actually happened.
        guard let base = memory.baseAddress, memory.count > 0 else {
            return .failure(.unreadableImage(format: .png, reason: "empty file"))
        }
        // libpng reads all 8 signature bytes before it compares them: a shorter file that is no start of a PNG
        // would be "read beyond end of data", as if it were a PNG cut short.
        if memory.count < 8, png_sig_cmp(base.assumingMemoryBound(to: UInt8.self), 0, memory.count) != 0 {
            return .failure(.unreadableImage(format: .png, reason: "Not a PNG file"))
        }
        guard png_image_begin_read_from_memory(png, base, memory.count) != 0 else {
            return .failure(.unreadableImage(format: .png, reason: message(of: png)))
        }
        let width = Int(png.pointee.width)
        let height = Int(png.pointee.height)
        // Checked before any pixel memory exists: the header of a 60-byte file can claim 30000 × 30000.
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= pixelLimit else {
            return .failure(.imageTooLarge(width: width, height: height, limit: pixelLimit))
        }
        png.pointee.format = prospects_png_format_gray()
        Self.resize(&pixels, to: count)
        // With a NULL background libpng blends transparent pixels onto whatever the buffer already holds.
        var white = png_color(red: 255, green: 255, blue: 255)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(png, &white, buffer.baseAddress, png_int_32(width), nil)
        }
        guard finished != 0, prospects_png_image_failed(png) == 0 else {
            return .failure(.unreadableImage(format: .png, reason: message(of: png)))
        }
        return .success((width, height))
    }

    /// Runs `body` with a zeroed `png_image` at a stable address (libpng keeps pointers to it between calls)
    /// and always releases libpng's state afterwards, whether or not `finish_read` ran.
    private func withPNGImage<T>(_ body: (UnsafeMutablePointer<png_image>) -> T) -> T {
        let png = UnsafeMutablePointer<png_image>.allocate(capacity: 1)
        png.initialize(to: png_image())
        png.pointee.version = prospects_png_image_version()
        defer {
            png_image_free(png)
            png.deallocate()
        }
        return body(png)
    }

    private func message(of png: UnsafeMutablePointer<png_image>) -> String {
        let text = withUnsafeBytes(of: png.pointee.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unknown libpng error" : text
    }
}
