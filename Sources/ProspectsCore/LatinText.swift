/// Byte-level shortcuts for text whose scalars all lie below U+0300 (ASCII, Latin-1, Latin Extended-A/B, IPA).
///
/// No scalar below U+0300 combines with another or has a canonical decomposition, so such text is already in
/// NFC; and within that range the Unicode properties the general path looks up reduce to a few fixed code
/// points. `LatinTextTests` checks every predicate here against the general one for each scalar below U+0300.
/// In UTF-8 those scalars are exactly the strings whose bytes are all below 0xCC (U+0300 is `CC 80`).
enum LatinText {
    /// One past the largest UTF-8 byte of a scalar below U+0300.
    static let latinByteLimit: UInt8 = 0xCC

    /// The largest byte of `bytes`, 0 when empty: a loop the compiler vectorises.
    static func maxByte(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var largest: UInt8 = 0
        for byte in bytes { largest = max(largest, byte) }
        return largest
    }

    /// Calls `body` with the UTF-8 bytes of `text` when they are contiguous and all below `limit`; nil otherwise.
    static func withBytes<R>(
        of text: String, below limit: UInt8, _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R? {
        let result = text.utf8.withContiguousStorageIfAvailable { bytes -> R? in
            maxByte(bytes) < limit ? body(bytes) : nil
        }
        return result ?? nil
    }

    /// `ScalarText.isBlank(s) || ScalarText.isLineBreak(s)` for a scalar below U+0300.
    static func isSpace(_ value: UInt32) -> Bool {
        value == 0x20 || value == 0x09 || value == 0x0A || value == 0x0D || value == 0xA0
    }

    /// `SafeText.isUnsafe` for a scalar below U+0300: C0 controls, DEL, C1 controls and the soft hyphen.
    static func isUnsafe(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xAD
    }

    /// Whether a scalar below U+0300 draws as something (`ProspectBuilder.isVisible`): all but the two space
    /// separators and the soft hyphen.
    static func isVisible(_ value: UInt32) -> Bool {
        value != 0x20 && value != 0xA0 && value != 0xAD
    }

    /// The scalar starting at `index` and the index after it; `bytes` must be valid UTF-8 below U+0300.
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, next: Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (UInt32(lead), index + 1) }
        return (UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), index + 2)
    }

    /// `bytes` without `isSpace` scalars at either end (`ScalarText.trimmed` on UTF-8 below U+0300).
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var start = 0
        var end = bytes.count
        while start < end {
            let byte = bytes[start]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                start += 1
            } else if byte == 0xC2 && start + 1 < end && bytes[start + 1] == 0xA0 {
                start += 2
            } else {
                break
            }
        }
        while end > start {
            let byte = bytes[end - 1]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                end -= 1
            } else if byte == 0xA0 && end - 2 >= start && bytes[end - 2] == 0xC2 {
                end -= 2
            } else {
                break
            }
        }
        return start..<end
    }

    /// The first scalar in `range` of `bytes` (UTF-8 below U+0300) that `matches`, if any.
    static func firstScalar(
        in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, where matches: (UInt32) -> Bool
    ) -> UInt32? {
        var index = range.lowerBound
        while index < range.upperBound {
            let (value, next) = scalar(in: bytes, at: index)
            if matches(value) { return value }
            index = next
        }
        return nil
    }

    /// The first unsafe scalar in `range` of `bytes` (UTF-8 below U+0300), if any.
    static func firstUnsafe(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> UInt32? {
        firstScalar(in: bytes, range, where: isUnsafe)
    }

    /// Whether `range` of `bytes` (UTF-8 below U+0300) holds a visible scalar.
    static func containsVisible(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        firstScalar(in: bytes, range, where: isVisible) != nil
    }

    /// True when every scalar of `text` is below U+0300, where no scalar composes or decomposes: `text` is NFC.
    static func isBelowCombining(_ text: String) -> Bool {
        withBytes(of: text, below: latinByteLimit) { _ in true } ?? false
    }

    /// `range` of `bytes` as a string, reusing `text` when the range covers it all.
    static func string(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        range.count == bytes.count ? text : String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

}
