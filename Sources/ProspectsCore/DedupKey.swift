import Foundation

/// The one rule that decides whether two email addresses name the same prospect.
///
/// Trimmed, Unicode NFC, then case-folded, so `Paul@Example.com` and ` paul@example.COM` collide.
/// The store's unique index holds this value, which makes deduplication hold across processes and machines.
public enum DedupKey {
    public static func make(_ email: String) -> String {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        // NFC first so composed and decomposed forms of one letter fold alike; again after lowercasing,
        // which can decompose.
        return trimmed.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
    }
}
