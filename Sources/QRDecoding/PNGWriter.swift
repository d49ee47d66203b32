import CPNG

/// Encodes a `GrayImage` as an 8-bit gray PNG.
public enum PNGWriter {
    /// The PNG bytes of `image` (8-bit gray, not interlaced).
    ///
    /// The corresponding C function is `png_image_write_to_memory`.
    public static func encode(_ image: GrayImage) throws(EncodeError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw EncodeError(reason: "image is empty (\(image.width) × \(image.height))")
        }
        guard image.pixels.count == image.width * image.height else {
            throw EncodeError(reason: "\(image.pixels.count) pixels for \(image.width) × \(image.height)")
        }
        guard let width = png_uint_32(exactly: image.width), let height = png_uint_32(exactly: image.height),
            let stride = png_int_32(exactly: image.width)
        else {
            throw EncodeError(reason: "dimensions \(image.width) × \(image.height) exceed PNG limits")
        }

        let png = UnsafeMutablePointer<png_image>.allocate(capacity: 1)
        defer {
            png_image_free(png)
            png.deallocate()
        }
        png.initialize(to: png_image())
        png.pointee.version = prospects_png_image_version()
        png.pointee.width = width
        png.pointee.height = height
        png.pointee.format = prospects_png_format_gray()

        // Preallocate the documented upper bound so the image is compressed once, not sized first and then written.
        var capacity = Int(prospects_png_image_png_size_max(png))
        for _ in 0..<2 {
            var written = png_alloc_size_t(capacity)
            var ok: Int32 = 0
            let bytes = image.pixels.withUnsafeBytes { pixels in
                [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                    ok = png_image_write_to_memory(
                        png, buffer.baseAddress, &written, 0, pixels.baseAddress, stride, nil)
                    count = ok != 0 ? Int(written) : 0
                }
            }
            if ok != 0 { return bytes }
            // On failure libpng either left `written` alone (a real error) or raised it to the size it needs.
            guard Int(written) > capacity else { break }
            capacity = Int(written)
        }
        let text = withUnsafeBytes(of: png.pointee.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        throw EncodeError(reason: text.isEmpty ? "png_image_write_to_memory failed" : text)
    }
}
