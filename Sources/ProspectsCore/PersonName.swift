import Foundation

/// A display name split into the family and given names that vCard's `N` property wants.
public enum PersonName {
    /// `Hudson, Paul` (one comma) is read the way lists write it, family name first; otherwise the last word is the
    /// family name and the rest the given names. A one-word name is a given name alone.
    public static func familyAndGiven(_ name: String) -> (family: String, given: String) {
        let parts = name.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2 {
            let family = parts[0].trimmingCharacters(in: .whitespaces)
            let given = parts[1].trimmingCharacters(in: .whitespaces)
            if !family.isEmpty && !given.isEmpty { return (family, given) }
        }
        let words = name.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard words.count >= 2 else { return ("", words.first ?? "") }
        return (words[words.count - 1], words.dropLast().joined(separator: " "))
    }
}
