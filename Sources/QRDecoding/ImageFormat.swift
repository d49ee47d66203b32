/// What a file holds, told by its first bytes (its magic number), never by its name.
///
/// A JPEG named `.png` is read as a JPEG; a GIF named `.jpg` is named a GIF in the error. Bytes shorter than a
/// signature that begin it are taken as that format cut short, so the reader can say "truncated".
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case png
    case jpeg
    /// HEIF with HEVC pictures: the iPhone's HEIC.
    case heif
    /// HEIF with AV1 pictures.
    case avif
    case webp

    /// The name a person knows the format by.
    public var name: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .heif: "HEIC"
        case .avif: "AVIF"
        case .webp: "WebP"
        }
    }

    /// What the bytes are: a format Prospects reads, or what else they are.
    public static func of(_ bytes: [UInt8]) -> Result<ImageFormat, UnsupportedFormat> {
        bytes.withUnsafeBufferPointer { of($0) }
    }

    static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ImageFormat, UnsupportedFormat> {
        if bytes.isEmpty { return .failure(.empty) }
        if begins(bytes, with: pngSignature) { return .success(.png) }
        if begins(bytes, with: [0xFF, 0xD8, 0xFF]) { return .success(.jpeg) }
        if begins(bytes, with: Array("RIFF".utf8)) {
            // RIFF, a 4-byte size, then the form type: WEBP (or AVI, WAVE… which are no pictures for us).
            guard bytes.count >= 12 else { return .success(.webp) }
            return matches(bytes, at: 8, Array("WEBP".utf8)) ? .success(.webp) : .failure(.other)
        }
        if let isoMedia = isoMediaFormat(bytes) { return isoMedia }
        if begins(bytes, with: Array("GIF8".utf8)) { return .failure(.gif) }
        if begins(bytes, with: [0x49, 0x49, 0x2A, 0x00]) || begins(bytes, with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return .failure(.tiff)
        }
        if begins(bytes, with: Array("%PDF-".utf8)) { return .failure(.pdf) }
        if begins(bytes, with: Array("BM".utf8)) && bytes.count >= 14 { return .failure(.bmp) }
        if isText(bytes) { return .failure(.text) }
        return .failure(.other)
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// HEIF and AVIF: an ISO base media file whose `ftyp` box names a HEIF or AVIF brand; nil when the bytes are
    /// no ISO media file at all.
    private static func isoMediaFormat(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ImageFormat, UnsupportedFormat>? {
        // Fewer than 8 bytes: the box size, then a beginning of "ftyp" (a HEIF cut short, we guess).
        if bytes.count > 4 && bytes.count < 8 {
            return begins(UnsafeBufferPointer(rebasing: bytes[4...]), with: ftyp) ? .success(.heif) : nil
        }
        guard matches(bytes, at: 4, ftyp) else { return nil }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        // The major brand, then (after a 4-byte minor version) the compatible brands, all inside the box.
        let end = min(bytes.count, max(size, 16))
        guard end >= 12 else { return .success(.heif) }  // cut before the major brand: a HEIF cut short, we guess
        var brands = [String]()
        var offset = 8
        while offset + 4 <= end {
            if offset != 12 { brands.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self)) }
            offset += 4
        }
        if brands.contains(where: { avifBrands.contains($0) }) && !heifBrands.contains(brands[0]) {
            return .success(.avif)
        }
        if brands.contains(where: { heifBrands.contains($0) }) { return .success(.heif) }
        if brands.contains(where: { avifBrands.contains($0) }) { return .success(.avif) }
        return .failure(.video)
    }

    private static let ftyp = Array("ftyp".utf8)
    private static let heifBrands: Set = [
        "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1",
    ]
    private static let avifBrands: Set = ["avif", "avis"]

    /// Whether `bytes` begin with `signature`, or are a beginning of it (a file cut inside its signature).
    private static func begins(_ bytes: UnsafeBufferPointer<UInt8>, with signature: [UInt8]) -> Bool {
        let count = min(bytes.count, signature.count)
        return count > 0 && (0..<count).allSatisfy { bytes[$0] == signature[$0] }
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ expected: [UInt8]) -> Bool {
        offset + expected.count <= bytes.count && (0..<expected.count).allSatisfy { bytes[offset + $0] == expected[$0] }
    }

    /// Whether the first 4 KB read as text: valid UTF-8 (a sequence cut at the end allowed), no control characters
    /// but tab, line feed, form feed and carriage return.
    private static func isText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let sample = bytes.prefix(4096)
        for byte in sample where byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D {
            return false
        }
        if sample.contains(0x7F) { return false }
        var decoder = UTF8()
        var iterator = sample.makeIterator()
        var consumed = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): consumed += UTF8.width(scalar)
            case .emptyInput: return true
            case .error: return sample.count - consumed < 4 && sample.count == 4096
            }
        }
    }
}

/// A file that is not a picture Prospects reads, named for a person: what it is instead.
public enum UnsupportedFormat: String, Error, Sendable, Hashable, CaseIterable {
    case empty
    case gif
    case tiff
    case bmp
    case pdf
    /// An ISO media file with no HEIF or AVIF brand: an MP4 or QuickTime video, most likely.
    case video
    case text
    /// Bytes no signature above matches.
    case other

    /// What the file is, as the start of a sentence: "a GIF image".
    public var description: String {
        switch self {
        case .empty: "an empty file"
        case .gif: "a GIF image"
        case .tiff: "a TIFF image"
        case .bmp: "a BMP image"
        case .pdf: "a PDF document"
        case .video: "a video (MP4 or QuickTime), not a picture"
        case .text: "a text file"
        case .other: "not a picture format Prospects knows"
        }
    }
}
