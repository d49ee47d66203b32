import CHeif

/// Decodes HEIF (HEIC) and AVIF bytes to 8-bit gray with libheif: the Y plane of the primary image.
///
/// libheif's own size limit is set before it reads anything, and the primary image's dimensions are checked against
/// the pixel limit before it is decoded. The image is decoded as YCbCr 4:2:0 (colour files refuse monochrome
/// output), 10- and 12-bit files converted to 8 bits. libheif applies the file's rotation and mirroring itself, so
/// the pixels are already upright.
public struct HEIFReader: Sendable {
    /// The most pixels (`width * height`) an image may have.
    public let pixelLimit: Int

    public init(pixelLimit: Int = PNGReader.defaultPixelLimit) {
        self.pixelLimit = pixelLimit
    }

    /// Decodes `bytes` (HEIF or AVIF, named by `format` in errors) into `image`, reusing its storage.
    ///
    /// The corresponding C functions are `heif_context_read_from_memory_without_copy` and `heif_decode_image`.
    public func read(
        _ bytes: UnsafeBufferPointer<UInt8>, format: ImageFormat = .heif, into image: inout GrayImage
    ) throws(DecodeError) {
        var pixels = image.pixels
        image = GrayImage(width: 0, height: 0, pixels: [])
        pixels.removeAll(keepingCapacity: true)
        do {
            let size = try decode(bytes, format: format, into: &pixels)
            image = GrayImage(width: size.width, height: size.height, pixels: pixels)
        } catch {
            pixels.removeAll(keepingCapacity: true)
            image = GrayImage(width: 0, height: 0, pixels: pixels)
            throw error
        }
    }

    /// Decodes `bytes` into a new gray image.
    public func read(_ bytes: [UInt8], format: ImageFormat = .heif) throws(DecodeError) -> GrayImage {
        var image = GrayImage(width: 0, height: 0, pixels: [])
        try bytes.withUnsafeBufferPointer { buffer throws(DecodeError) in
            try read(buffer, format: format, into: &image)
        }
        return image
    }

    private func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, format: ImageFormat, into pixels: inout [UInt8]
    ) throws(DecodeError) -> (width: Int, height: Int) {
        guard ImageCompleteness.of(bytes) == .complete, let base = bytes.baseAddress else {
            throw .truncatedImage(format: format)
        }
        guard let context = heif_context_alloc() else {
            throw .unreadableImage(format: format, reason: "libheif could not allocate a context")
        }
        defer { heif_context_free(context) }
        // Applies to width and height alike; the product is checked below, before decoding.
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: pixelLimit))
        try check(heif_context_read_from_memory_without_copy(context, base, bytes.count, nil), format)
        var handle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(context, &handle), format)
        guard let handle else { throw .unreadableImage(format: format, reason: "no primary image") }
        defer { heif_image_handle_release(handle) }
        let width = Int(heif_image_handle_get_width(handle))
        let height = Int(heif_image_handle_get_height(handle))
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, count <= pixelLimit else {
            throw .imageTooLarge(width: width, height: height, limit: pixelLimit)
        }
        guard let options = heif_decoding_options_alloc() else {
            throw .unreadableImage(format: format, reason: "libheif could not allocate decoding options")
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var decoded: OpaquePointer?
        var error = heif_decode_image(handle, &decoded, heif_colorspace_YCbCr, heif_chroma_420, options)
        if error.code != heif_error_Ok {
            // A monochrome file has no chroma to give as 4:2:0.
            error = heif_decode_image(handle, &decoded, heif_colorspace_monochrome, heif_chroma_monochrome, options)
        }
        try check(error, format)
        guard let decoded else { throw .unreadableImage(format: format, reason: "libheif returned no image") }
        defer { heif_image_release(decoded) }
        let depth = heif_image_get_bits_per_pixel_range(decoded, heif_channel_Y)
        guard depth == 8 else {
            throw .unreadableImage(format: format, reason: "\(depth)-bit luma left after conversion to 8 bits")
        }
        let planeWidth = Int(heif_image_get_width(decoded, heif_channel_Y))
        let planeHeight = Int(heif_image_get_height(decoded, heif_channel_Y))
        guard planeWidth > 0, planeHeight > 0, planeWidth * planeHeight <= pixelLimit else {
            throw .imageTooLarge(width: planeWidth, height: planeHeight, limit: pixelLimit)
        }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(decoded, heif_channel_Y, &stride), Int(stride) >= planeWidth
        else { throw .unreadableImage(format: format, reason: "the decoded image has no luma plane") }
        pixels.reserveCapacity(planeWidth * planeHeight)
        for row in 0..<planeHeight {
            pixels.append(contentsOf: UnsafeBufferPointer(start: plane + row * Int(stride), count: planeWidth))
        }
        return (planeWidth, planeHeight)
    }

    private func check(_ error: heif_error, _ format: ImageFormat) throws(DecodeError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? ""
        throw .unreadableImage(
            format: format, reason: message.isEmpty ? "libheif error \(error.code.rawValue)" : message)
    }
}
