import CDeflate

/// gzip (RFC 1952) in one call by libdeflate: the only place Swift calls it (a response's `Content-Encoding: gzip`,
/// and reading one back in tests).
public enum Gzip {
    /// `bytes` gzip'd at `level` (1 fastest to 12 smallest; 6 is zlib's default); nil only when libdeflate cannot
    /// allocate its compressor (out of memory). The C functions are `libdeflate_alloc_compressor`,
    /// `libdeflate_gzip_compress_bound` and `libdeflate_gzip_compress`.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_gzip_compress_bound(compressor, bytes.count))
        let written = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, out.baseAddress, out.count)
            }
        }
        guard written > 0 else { return nil }
        output.removeSubrange(written...)
        return output
    }

    /// The bytes a single gzip member holds, at most `limit` of them; nil for anything else (not gzip, damaged,
    /// larger than `limit`). The C function is `libdeflate_gzip_decompress`.
    public static func decompress(_ gzip: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        // The trailer's last four bytes: the original size modulo 2^32 (little-endian).
        guard gzip.count >= 18 else { return nil }
        let size = gzip.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        guard size <= limit, let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var output = [UInt8](repeating: 0, count: max(size, 1))
        var written = 0
        let result = gzip.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                libdeflate_gzip_decompress(
                    decompressor, input.baseAddress, input.count, out.baseAddress, size, &written)
            }
        }
        guard result == LIBDEFLATE_SUCCESS, written == size else { return nil }
        output.removeSubrange(written...)
        return output
    }
}
