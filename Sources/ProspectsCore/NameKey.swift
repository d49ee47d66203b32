import Foundation

/// The key a name sorts by: NFC, lowercased, NFC again. Both stores compare it byte by byte (SQLite BINARY,
/// PostgreSQL `COLLATE "C"`), which is code-point order in UTF-8, so they sort alike whatever their locale.
///
/// `list --sort name` orders by the key with its Latin letters folded to their base letters first (`folds`), so
/// that Élodie sorts beside Elena, not after Zoë, and by the key itself only among names that fold alike. The fold
/// is applied when a list is read, not stored, so stores written before it sort the same way.
public enum NameKey {
    public static func make(_ name: String) -> String {
        // ASCII and Latin-1 (UTF-8 bytes below C4) are NFC, and lowercase to Latin-1 by a fixed rule; String's
        // `lowercased` looks up each scalar's properties, several times the cost, for every row an import writes.
        if let key = LatinText.withBytes(of: name, below: 0xC4, { latin1Lowercased(name, $0) }) { return key }
        // Text below U+0300 is already NFC: Foundation's normalisation, microseconds per call, is only needed for
        // the rest (`LatinText`).
        let lower = (LatinText.isBelowCombining(name) ? name : name.precomposedStringWithCanonicalMapping).lowercased()
        return LatinText.isBelowCombining(lower) ? lower : lower.precomposedStringWithCanonicalMapping
    }

    /// `text.lowercased()` for text whose UTF-8 `bytes` are all below C4 (U+0000 to U+00FF): A–Z and U+00C0 to
    /// U+00DE but × (`C3 80`…`C3 9E`, not `C3 97`) move up by 0x20; everything else, ß and ÿ among it, lowercases
    /// to itself. `NameKeyTests` checks it against `lowercased` for every scalar of the range.
    static func latin1Lowercased(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let hasUpper = bytes.indices.contains { index in
            let byte = bytes[index]
            if byte >= 0x41 && byte <= 0x5A { return true }
            guard byte >= 0x80 && byte <= 0x9E && byte != 0x97, index > 0 else { return false }
            return bytes[index - 1] == 0xC3
        }
        guard hasUpper else { return text }
        return String(unsafeUninitializedCapacity: bytes.count) { out in
            var afterC3 = false
            for (index, byte) in bytes.enumerated() {
                let upper = afterC3 ? byte >= 0x80 && byte <= 0x9E && byte != 0x97 : byte >= 0x41 && byte <= 0x5A
                out[index] = upper ? byte + 0x20 : byte
                afterC3 = byte == 0xC3
            }
            return bytes.count
        }
    }

    /// What each Latin letter with a diacritic folds to in the sort: the letter its canonical decomposition starts
    /// with (é → e, ǚ → u, ệ → e), or for the letters that have none, the one a reader would file it under (ø → o,
    /// ł → l, ß → ss, æ → ae). A fixed table, so that PostgreSQL can apply exactly the same fold (`translate` and
    /// `replace`) as SQLite does in Swift.
    public static let folds: [Unicode.Scalar: String] = {
        var folds: [Unicode.Scalar: String] = [
            "æ": "ae", "Æ": "ae", "ð": "d", "Ð": "d", "ø": "o", "Ø": "o", "þ": "th", "Þ": "th", "ß": "ss",
            "ẞ": "ss", "đ": "d", "Đ": "d", "ħ": "h", "Ħ": "h", "ı": "i", "ĳ": "ij", "Ĳ": "ij", "ŀ": "l", "Ŀ": "l",
            "ł": "l", "Ł": "l", "ŋ": "n", "Ŋ": "n", "œ": "oe", "Œ": "oe", "ŧ": "t", "Ŧ": "t", "ſ": "s",
        ]
        // Latin-1, Latin Extended-A and -B, Latin Extended Additional (Vietnamese, Welsh ŵ, …).
        for value in Array(0xC0...0x24F) + Array(0x1E00...0x1EFF) {
            guard let scalar = Unicode.Scalar(value), folds[scalar] == nil else { continue }
            let parts = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
            guard parts.count > 1, let base = parts.first, base.isASCII, base.properties.isAlphabetic,
                parts.dropFirst().allSatisfy({ (0x300...0x36F).contains($0.value) })
            else { continue }
            folds[scalar] = String(base).lowercased()
        }
        return folds
    }()

    /// What `list --sort name` orders by, for a name `key` (`make`): the key folded, with each run of ASCII digits
    /// written as a number of 20 digits, so that comparing bytes puts Person 2 before Person 10. Computed in Swift
    /// when a name is stored, so that both stores sort alike.
    public static func sortKey(_ key: String) -> String {
        sortKey(folded: fold(key))
    }

    /// `sortKey` of a key already folded (`fold`): a writer that needs the fold for something else folds once. By
    /// UTF-8 bytes: ASCII digits are never part of a longer sequence, and String's scalar view cost names with
    /// digits (`Person 12`) a slow path of their own on every row an import writes.
    public static func sortKey(folded: String) -> String {
        var folded = folded
        let padded = folded.withUTF8 { bytes -> String? in
            guard bytes.contains(where: isASCIIDigit) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 2 * sortKeyDigits)
            var index = 0
            while index < bytes.count {
                guard isASCIIDigit(bytes[index]) else {
                    out.append(bytes[index])
                    index += 1
                    continue
                }
                var end = index
                while end < bytes.count && isASCIIDigit(bytes[end]) { end += 1 }
                var start = index
                while start < end && bytes[start] == 0x30 { start += 1 }
                if end - start < sortKeyDigits {
                    out.append(contentsOf: repeatElement(0x30, count: sortKeyDigits - (end - start)))
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                index = end
            }
            return String(decoding: out, as: UTF8.self)
        }
        return padded ?? folded
    }

    /// How many digits a run of digits is padded to in a sort key (a longer run is kept whole).
    static let sortKeyDigits = 20

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    /// Text as `search` compares it: lowercased, NFC, folded (`Müller` → `muller`).
    public static func searchKey(_ text: String) -> String {
        fold(make(text))
    }

    /// `key` with every scalar in `folds` replaced by its fold. Text that is all ASCII comes back as it is.
    public static func fold(_ key: String) -> String {
        var key = key
        // By UTF-8 bytes: a name is folded for every row an import writes, and String's scalar views cost several
        // times as much.
        let folded = key.withUTF8 { bytes -> String? in
            guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 8)
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                if lead < 0x80 {
                    out.append(lead)
                    index += 1
                    continue
                }
                // A String holds valid UTF-8: the lead byte says the length.
                let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset]) & 0x3F }
                if let replacement = fold(value) {
                    out.append(contentsOf: replacement.utf8)
                } else {
                    out.append(contentsOf: bytes[index..<index + length])
                }
                index += length
            }
            return String(decoding: out, as: UTF8.self)
        }
        return folded ?? key
    }

    /// `folds[scalar]` by an array lookup instead of hashing: every key of `folds` lies in one of these two ranges,
    /// and a name is folded for every row an import writes.
    private static func fold(_ value: UInt32) -> String? {
        switch value {
        case 0xC0...0x24F: latinFolds[Int(value) - 0xC0]
        case 0x1E00...0x1EFF: extendedFolds[Int(value) - 0x1E00]
        default: nil
        }
    }

    private static let latinFolds: [String?] = (0xC0...0x24F).map { Unicode.Scalar($0).flatMap { folds[$0] } }
    private static let extendedFolds: [String?] = (0x1E00...0x1EFF).map { Unicode.Scalar($0).flatMap { folds[$0] } }
}
