/// How a picture's stored pixels are turned to be seen upright: the EXIF orientation tag (1…8).
///
/// Phones store a portrait photo as landscape pixels and say "turn me" here. The scanner reads the stored pixels
/// (zbar finds codes at any angle); what a person is told, the corners of a code, is turned to the upright picture.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Whether the stored pixels are a mirror image of the scene (zbar cannot read a mirrored code).
    public var isMirrored: Bool {
        switch self {
        case .upMirrored, .downMirrored, .leftMirrored, .rightMirrored: true
        case .up, .down, .right, .left: false
        }
    }

    /// The orientation left once the stored pixels have been flipped left to right.
    public var afterHorizontalFlip: ImageOrientation {
        switch self {
        case .up: .upMirrored
        case .upMirrored: .up
        case .down: .downMirrored
        case .downMirrored: .down
        case .leftMirrored: .left
        case .left: .leftMirrored
        case .right: .rightMirrored
        case .rightMirrored: .right
        }
    }

    /// The map from a stored `width` × `height` image's pixel positions to the upright picture's.
    public func toUpright(width: Int, height: Int) -> AffineMap {
        let w = Double(width - 1)
        let h = Double(height - 1)
        return switch self {
        case .up: .identity
        case .upMirrored: AffineMap(a: -1, b: 0, c: w, d: 0, e: 1, f: 0)
        case .down: AffineMap(a: -1, b: 0, c: w, d: 0, e: -1, f: h)
        case .downMirrored: AffineMap(a: 1, b: 0, c: 0, d: 0, e: -1, f: h)
        case .leftMirrored: AffineMap(a: 0, b: 1, c: 0, d: 1, e: 0, f: 0)
        case .right: AffineMap(a: 0, b: -1, c: h, d: 1, e: 0, f: 0)
        case .rightMirrored: AffineMap(a: 0, b: -1, c: h, d: -1, e: 0, f: w)
        case .left: AffineMap(a: 0, b: 1, c: 0, d: -1, e: 0, f: w)
        }
    }

    /// The orientation in a JPEG's EXIF block (the APP1 `Exif` segment's first IFD, tag 0x0112); `.up` when the
    /// file has none or it cannot be read: a broken tag never costs the picture.
    public static func ofJPEG(_ bytes: UnsafeBufferPointer<UInt8>) -> ImageOrientation {
        var offset = 2
        // Segments before the first scan; EXIF is APP1 (FFE1), usually the first.
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { break }
            if marker == 0xE1, length >= 8 + 6 {
                let start = offset + 4
                let exif: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
                if (0..<6).allSatisfy({ bytes[start + $0] == exif[$0] }),
                    let found = tiffOrientation(
                        UnsafeBufferPointer(rebasing: bytes[(start + 6)..<(offset + 2 + length)]))
                {
                    return found
                }
            }
            offset += 2 + length
        }
        return .up
    }

    /// Tag 0x0112 of the first IFD of a TIFF structure (EXIF's), in either byte order.
    static func tiffOrientation(_ tiff: UnsafeBufferPointer<UInt8>) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func read(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= tiff.count else { return nil }
            return (0..<count).reduce(0) { value, index in
                little ? value | Int(tiff[at + index]) << (8 * index) : value << 8 | Int(tiff[at + index])
            }
        }
        guard read(2, 2) == 42, let ifd = read(4, 4), let count = read(ifd, 2) else { return nil }
        for entry in 0..<min(count, 512) {
            let at = ifd + 2 + 12 * entry
            guard let tag = read(at, 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), one value, held in the entry's first two value bytes.
            guard read(at + 2, 2) == 3, let value = read(at + 8, 2) else { return nil }
            return ImageOrientation(rawValue: value)
        }
        return nil
    }
}

extension GrayImage {
    /// Flips the image left to right, in place.
    mutating func flipHorizontally() {
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                let row = y * width
                var left = row
                var right = row + width - 1
                while left < right {
                    pixels.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            }
        }
    }
}
