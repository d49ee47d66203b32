import CTurboJPEG

/// Decodes JPEG bytes to 8-bit gray with libturbojpeg, luma only, optionally reduced by DCT scaling.
///
/// Baseline, progressive, arithmetic, restart markers and gray files decode straight to luma (`TJPF_GRAY`: no colour
/// conversion at all). CMYK and YCCK files, which libjpeg-turbo cannot turn into gray, are decoded to CMYK and their
/// luma computed from Adobe's inverted ink values. Dimensions are checked against the pixel limit from the header,
/// before any pixel memory exists; a file that ends before its `EOI` marker is refused as truncated rather than
/// decoded with gray filling the missing rows, unless only the marker is missing (`decodeLackingEndMarker`).
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
    /// (`reduction` 1, 2, 4 or 8); returns what the picture was read in spite of. The corresponding C functions are
    /// `tjDecompressHeader3` and `tjDecompress2`.
    @discardableResult
    public func read(
        _ bytes: UnsafeBufferPointer<UInt8>, reduction: Int = 1, into image: inout GrayImage
    ) throws(DecodeError) -> [DecodeWarning] {
        precondition([1, 2, 4, 8].contains(reduction), "libturbojpeg scales by 1/2, 1/4 and 1/8")
        var pixels = image.pixels
        image = GrayImage(width: 0, height: 0, pixels: [])  // drop our reference so `pixels` stays unique
        do {
            let decoded = try withDecompressor { handle throws(DecodeError) in
                try decode(bytes, handle, reduction: reduction, into: &pixels)
            }
            image = GrayImage(width: decoded.width, height: decoded.height, pixels: pixels)
            return decoded.warnings
        } catch {
            pixels.removeAll(keepingCapacity: true)
            image = GrayImage(width: 0, height: 0, pixels: pixels)
            throw error
        }
    }

    /// Decodes `bytes` into a new gray image at full size.
    public func read(_ bytes: [UInt8]) throws(DecodeError) -> GrayImage {
        var image = GrayImage(width: 0, height: 0, pixels: [])
        _ = try bytes.withUnsafeBufferPointer { buffer throws(DecodeError) in try read(buffer, into: &image) }
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
    ) throws(DecodeError) -> (width: Int, height: Int, warnings: [DecodeWarning]) {
        let header = try header(bytes, handle)
        let factor = tjscalingfactor(num: 1, denom: Int32(reduction))
        let width = Int(prospects_tj_scaled(Int32(header.width), factor))
        let height = Int(prospects_tj_scaled(Int32(header.height), factor))
        guard ImageCompleteness.of(bytes) == .complete else {
            // libjpeg-turbo would fill the missing rows with gray and warn; a file still being written must say so.
            try decodeLackingEndMarker(bytes, handle, header, width: width, height: height, into: &pixels)
            return (width, height, [.missingEndMarker(format: .jpeg)])
        }
        let status = decompress(bytes, handle, header, width: width, height: height, flags: 0, into: &pixels)
        // A warning (extraneous bytes, a bad restart marker…) still leaves a whole image, as every viewer shows it.
        guard status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
            throw .unreadableImage(format: .jpeg, reason: Self.message(handle))
        }
        return (width, height, [])
    }

    /// Decodes a JPEG that ends before its `EOI` when only the 2-byte marker is missing, or refuses it as truncated.
    /// Whole means: its scans cover every coefficient of every component (`JPEGScanCoverage`), and with `EOI`
    /// put back libjpeg reads all their entropy-coded data without a single warning (a scan cut short warns "premature
    /// end of data segment" on meeting the marker; a warning of any kind stops the decode and refuses the file).
    private func decodeLackingEndMarker(
        _ bytes: UnsafeBufferPointer<UInt8>, _ handle: tjhandle, _ header: Header, width: Int, height: Int,
        into pixels: inout [UInt8]
    ) throws(DecodeError) {
        guard JPEGScanCoverage.isComplete(bytes) else { throw .truncatedImage(format: .jpeg) }
        var ended = [UInt8](bytes)
        ended += [0xFF, 0xD9]
        let status = ended.withUnsafeBufferPointer { whole in
            decompress(
                whole, handle, header, width: width, height: height, flags: TJFLAG_STOPONWARNING, into: &pixels)
        }
        // tjDecompress2 returns 0 only when libjpeg raised no warning at all (any warning makes it -1).
        guard status == 0 else { throw .truncatedImage(format: .jpeg) }
    }

    /// One `tjDecompress2` of `bytes` into `pixels` (`width` × `height` gray), through CMYK for CMYK and YCCK files;
    /// its status.
    private func decompress(
        _ bytes: UnsafeBufferPointer<UInt8>, _ handle: tjhandle, _ header: Header, width: Int, height: Int,
        flags: Int32, into pixels: inout [UInt8]
    ) -> Int32 {
        let count = width * height
        let status: Int32
        if header.isCMYK {
            var cmyk = [UInt8](repeating: 0, count: count * 4)
            status = cmyk.withUnsafeMutableBufferPointer { out in
                tjDecompress2(
                    handle, bytes.baseAddress, UInt(bytes.count), out.baseAddress, Int32(width), 0, Int32(height),
                    Int32(TJPF_CMYK.rawValue), flags)
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
                    Int32(TJPF_GRAY.rawValue), flags)
            }
        }
        return status
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
