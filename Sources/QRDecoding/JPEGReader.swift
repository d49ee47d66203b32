import CTurboJPEG

/// Decodes JPEG bytes to 8-bit gray with libturbojpeg, luma only, optionally reduced by DCT scaling.
///
/// Baseline, progressive, arithmetic, restart markers and gray files decode straight to luma (`TJPF_GRAY`: no colour
/// conversion at all). CMYK and YCCK files, which libjpeg-turbo cannot turn into gray, are decoded to CMYK and their
/// luma computed from Adobe's inverted ink values. Dimensions are checked against the pixel limit from the header,
/// before any pixel memory exists; a file that ends before its `EOI` marker is refused as truncated rather than
/// decoded with gray filling the missing rows.
public struct JPEGReader: Sendable {
    /// The most pixels (`width * height`, at full size) an image may have.
    public let pixelLimit: Int

    public init(pixelLimit: Int = PNGReader.defaultPixelLimit) {
        self.pixelLimit = pixelLimit
    }

    /// What the header says, read without decoding any pixel.
    public struct Header: Sendable, Hashable {
        public var width: Int
        public var height: Int
        /// Whether the file holds CMYK or YCCK (four components), which are decoded through CMYK.
        public var isCMYK: Bool
    }

    /// The header of `bytes`, with the pixel limit checked. The corresponding C function is `tjDecompressHeader3`.
    public func header(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecodeError) -> Header {
        try withDecompressor { handle throws(DecodeError) in try header(bytes, handle) }
    }

    /// Decodes `bytes` into `image` (its storage reused), reduced `1 / reduction` times by DCT scaling
    /// (`reduction` 1, 2, 4 or 8). The corresponding C functions are `tjDecompressHeader3` and `tjDecompress2`.
    public func read(
        _ bytes: UnsafeBufferPointer<UInt8>, reduction: Int = 1, into image: inout GrayImage
    ) throws(DecodeError) {
        precondition([1, 2, 4, 8].contains(reduction), "libturbojpeg scales by 1/2, 1/4 and 1/8")
        var pixels = image.pixels
        image = GrayImage(width: 0, height: 0, pixels: [])  // drop our reference so `pixels` stays unique
        do {
            let size = try withDecompressor { handle throws(DecodeError) in
                try decode(bytes, handle, reduction: reduction, into: &pixels)
            }
            image = GrayImage(width: size.width, height: size.height, pixels: pixels)
        } catch {
            pixels.removeAll(keepingCapacity: true)
            image = GrayImage(width: 0, height: 0, pixels: pixels)
            throw error
        }
    }

    /// Decodes `bytes` into a new gray image at full size.
    public func read(_ bytes: [UInt8]) throws(DecodeError) -> GrayImage {
        var image = GrayImage(width: 0, height: 0, pixels: [])
        try bytes.withUnsafeBufferPointer { buffer throws(DecodeError) in try read(buffer, into: &image) }
        return image
    }

    private func withDecompressor<T>(_ body: (tjhandle) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard let handle = tjInitDecompress() else {
            throw .unreadableImage(format: .jpeg, reason: "libturbojpeg could not start a decompressor")
        }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    private func header(_ bytes: UnsafeBufferPointer<UInt8>, _ handle: tjhandle) throws(DecodeError) -> Header {
        guard let base = bytes.baseAddress, bytes.count > 0 else { throw .truncatedImage(format: .jpeg) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, base, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0
        else {
            // A file cut before its frame header has no header to read: that is truncation, not corruption.
            if case .incomplete = ImageCompleteness.of(bytes) { throw .truncatedImage(format: .jpeg) }
            throw .unreadableImage(format: .jpeg, reason: Self.message(handle))
        }
        // libjpeg-turbo answers a file that ends before its frame header with a warning and a size of 0 × 0.
        guard width > 0, height > 0 else {
            if case .incomplete = ImageCompleteness.of(bytes) { throw .truncatedImage(format: .jpeg) }
            throw .unreadableImage(format: .jpeg, reason: "the frame header declares \(width) × \(height) pixels")
        }
        let (count, overflow) = Int(width).multipliedReportingOverflow(by: Int(height))
        guard !overflow, count <= pixelLimit else {
            throw .imageTooLarge(width: Int(width), height: Int(height), limit: pixelLimit)
        }
        let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        return Header(width: Int(width), height: Int(height), isCMYK: cmyk)
    }

    private func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, _ handle: tjhandle, reduction: Int, into pixels: inout [UInt8]
    ) throws(DecodeError) -> (width: Int, height: Int) {
        let header = try header(bytes, handle)
        // libjpeg-turbo would fill the missing rows with gray and warn; a file still being written must say so.
        guard ImageCompleteness.of(bytes) == .complete else { throw .truncatedImage(format: .jpeg) }
        let factor = tjscalingfactor(num: 1, denom: Int32(reduction))
        let width = Int(prospects_tj_scaled(Int32(header.width), factor))
        let height = Int(prospects_tj_scaled(Int32(header.height), factor))
        let count = width * height
        let status: Int32
        if header.isCMYK {
            var cmyk = [UInt8](repeating: 0, count: count * 4)
            status = cmyk.withUnsafeMutableBufferPointer { out in
                tjDecompress2(
                    handle, bytes.baseAddress, UInt(bytes.count), out.baseAddress, Int32(width), 0, Int32(height),
                    Int32(TJPF_CMYK.rawValue), 0)
            }
            if status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) {
                Self.resize(&pixels, to: count)
                Self.luma(ofInvertedCMYK: cmyk, into: &pixels)
            }
        } else {
            Self.resize(&pixels, to: count)
            status = pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(
                    handle, bytes.baseAddress, UInt(bytes.count), out.baseAddress, Int32(width), 0, Int32(height),
                    Int32(TJPF_GRAY.rawValue), 0)
            }
        }
        // A warning (extraneous bytes, a bad restart marker…) still leaves a whole image, as every viewer shows it.
        guard status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
            throw .unreadableImage(format: .jpeg, reason: Self.message(handle))
        }
        return (width, height)
    }

    /// Luma from CMYK as Adobe writes it (inverted: 255 means no ink): each colour is its ink times the black ink,
    /// then weighted as BT.601 weights R, G and B.
    static func luma(ofInvertedCMYK cmyk: [UInt8], into pixels: inout [UInt8]) {
        cmyk.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { out in
                for index in 0..<out.count {
                    let base = index * 4
                    let k = Int(source[base + 3])
                    let weighted = 77 * Int(source[base]) + 150 * Int(source[base + 1]) + 29 * Int(source[base + 2])
                    out[index] = UInt8((weighted * k + 255 * 128) / (255 * 256))
                }
            }
        }
    }

    /// Makes `pixels` `count` white pixels, keeping its capacity: a corrupt file can leave rows that libjpeg-turbo
    /// never writes, and those must not show the previous picture.
    private static func resize(_ pixels: inout [UInt8], to count: Int) {
        pixels.removeAll(keepingCapacity: true)
        pixels.append(contentsOf: repeatElement(255, count: count))
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown libturbojpeg error" }
        let message = String(cString: text)
        return message.isEmpty ? "unknown libturbojpeg error" : message
    }
}
