import Foundation

/// The one rule that decides whether two email addresses name the same prospect.
///
/// Trimmed, Unicode NFC, then case-folded, so `Paul@Example.com` and ` paul@example.COM` collide.
/// The store's unique index holds this value, which makes deduplication hold across processes and machines.
public enum DedupKey {
    public static func make(_ email: String) -> String {
        // ASCII text is already NFC and lowercases to ASCII: trim and fold the bytes, without Foundation.
        let fast = LatinText.withBytes(of: email, below: 0x80) { bytes -> String in
            var start = 0
            var end = bytes.count
            while start < end && isASCIIWhitespace(bytes[start]) { start += 1 }
            while end > start && isASCIIWhitespace(bytes[end - 1]) { end -= 1 }
            let trimmed = UnsafeBufferPointer(rebasing: bytes[start..<end])
            guard trimmed.contains(where: { (0x41...0x5A).contains($0) }) else {
                return LatinText.string(email, bytes, start..<end)
            }
            return String(unsafeUninitializedCapacity: trimmed.count) { buffer in
                for (index, byte) in trimmed.enumerated() {
                    buffer[index] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                }
                return trimmed.count
            }
        }
        return fast ?? generalMake(email)
    }

    /// `make` without the ASCII shortcut.
    static func generalMake(_ email: String) -> String {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        // NFC first so composed and decomposed forms of one letter fold alike; again after lowercasing,
        // which can decompose.
        return trimmed.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
    }

    /// The ASCII members of Foundation's `whitespacesAndNewlines`: tab, LF, VT, FF, CR and space.
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
