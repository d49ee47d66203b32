/// Whether a picture's bytes hold the whole picture so far, from its structure alone (no decoding).
///
/// For a watcher whose writers append a file in pieces: an incomplete picture is not judged until it has been quiet
/// for a while. PNG is complete at its `IEND` chunk; JPEG at the `EOI` marker that ends its last scan (an `EOI`
/// inside an embedded thumbnail does not count); HEIF / AVIF when its top-level boxes are all there, `ftyp`, `meta`
/// and `mdat` among them; WebP when the RIFF size and every chunk it announces are there.
public enum ImageCompleteness: Sendable, Hashable {
    /// Every structure the format needs is present (data after the end, as some phones append, is allowed).
    case complete
    /// The bytes are a beginning of the format that ends too soon: more may be on its way, or the file is cut.
    case incomplete
    /// Not a format Prospects reads: no amount of waiting makes it one. (Four bytes or fewer that match no
    /// signature are `incomplete`: a HEIF begins with a box size that any bytes may be.)
    case notAPicture(UnsupportedFormat)

    /// The completeness of `bytes`.
    public static func of(_ bytes: [UInt8]) -> ImageCompleteness {
        bytes.withUnsafeBufferPointer { of($0) }
    }

    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> ImageCompleteness {
        switch ImageFormat.of(bytes) {
        case .failure(.other) where bytes.count <= 4:
            return .incomplete  // the size field of a HEIF's first box, maybe: too soon to tell
        case .failure(let other): return .notAPicture(other)
        case .success(.png): return png(bytes) ? .complete : .incomplete
        case .success(.jpeg): return jpeg(bytes) ? .complete : .incomplete
        case .success(.heif), .success(.avif): return isoMedia(bytes) ? .complete : .incomplete
        case .success(.webp): return webp(bytes) ? .complete : .incomplete
        }
    }

    /// Chunks from after the signature, each length + type + data + CRC, up to a whole `IEND`.
    private static func png(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bigEndian(bytes, offset, 4)
            guard length <= 0x7FFF_FFFF else { return false }  // no valid PNG has it: treat as broken, so incomplete
            let isEnd =
                bytes[offset + 4] == 0x49 && bytes[offset + 5] == 0x45 && bytes[offset + 6] == 0x4E
                && bytes[offset + 7] == 0x44
            let next = offset + 12 + length
            guard next <= bytes.count else { return false }
            if isEnd { return true }
            offset = next
        }
        return false
    }

    /// Markers from `SOI` (JPEGMarkers), until the `EOI` that follows the frame.
    private static func jpeg(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        JPEGMarkers(bytes).contains { marker in
            if case .end = marker { true } else { false }
        }
    }

    /// Top-level boxes, each size + type (+ a 64-bit size when size is 1; to the end when size is 0).
    private static func isoMedia(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var offset = 0
        var seen = Set<String>()
        while offset < bytes.count {
            guard offset + 8 <= bytes.count else { return false }
            var size = bigEndian(bytes, offset, 4)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if size == 1 {
                guard offset + 16 <= bytes.count else { return false }
                guard bytes[offset + 8] == 0 else { return false }  // over 2^56 bytes: no picture
                size = bigEndian(bytes, offset + 9, 7)
                guard size >= 16 else { return false }
            } else if size == 0 {
                size = bytes.count - offset
            } else if size < 8 {
                return false
            }
            guard size <= bytes.count - offset else { return false }
            seen.insert(type)
            offset += size
        }
        return seen.isSuperset(of: ["ftyp", "meta", "mdat"])
    }

    /// The RIFF header's size (little-endian, counting from byte 8), and each chunk inside it.
    private static func webp(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 12 else { return false }
        let riffSize = littleEndian(bytes, 4)
        guard riffSize >= 4, 8 + riffSize <= bytes.count else { return false }
        let end = 8 + riffSize
        var offset = 12
        var chunks = 0
        while offset < end {
            guard offset + 8 <= end else { return false }
            let size = littleEndian(bytes, offset + 4)
            // Chunks are padded to an even size.
            let next = offset + 8 + size + (size & 1)
            guard next <= end || offset + 8 + size == end else { return false }
            offset = next
            chunks += 1
        }
        return chunks > 0
    }

    private static func bigEndian(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }

    private static func littleEndian(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int {
        (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }
}
