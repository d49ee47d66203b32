import Foundation

/// A display name split into the family and given names that vCard's `N` property wants.
public enum PersonName {
    /// `Hudson, Paul` (one comma) is read the way lists write it, family name first; so is a name written in Chinese,
    /// Japanese or Korean characters (`山田 太郎`: 山田 is the family name). Otherwise the last word is the family name
    /// and the rest the given names. A one-word name is a given name alone.
    public static func familyAndGiven(_ name: String) -> (family: String, given: String) {
        let parts = name.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2 {
            let family = parts[0].trimmingCharacters(in: .whitespaces)
            let given = parts[1].trimmingCharacters(in: .whitespaces)
            if !family.isEmpty && !given.isEmpty { return (family, given) }
        }
        let words = name.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard words.count >= 2 else { return ("", words.first ?? "") }
        if words.allSatisfy(isEastAsian) { return (words[0], words.dropFirst().joined(separator: " ")) }
        return (words[words.count - 1], words.dropLast().joined(separator: " "))
    }

    /// Whether a word starts with a Han character, kana or hangul: the scripts whose names put the family first.
    private static func isEastAsian(_ word: String) -> Bool {
        guard let value = word.unicodeScalars.first?.value else { return false }
        switch value {
        case 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF,
            0xF900...0xFAFF, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }
}
