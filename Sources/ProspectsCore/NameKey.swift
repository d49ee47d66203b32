import Foundation

/// The key a name sorts by: NFC, lowercased, NFC again. Both stores compare it byte by byte (SQLite BINARY,
/// PostgreSQL `COLLATE "C"`), which is code-point order in UTF-8, so they sort alike whatever their locale.
public enum NameKey {
    public static func make(_ name: String) -> String {
        // Text below U+0300 is already NFC: Foundation's normalisation, microseconds per call, is only needed for
        // the rest (`LatinText`).
        let lower = (LatinText.isBelowCombining(name) ? name : name.precomposedStringWithCanonicalMapping).lowercased()
        return LatinText.isBelowCombining(lower) ? lower : lower.precomposedStringWithCanonicalMapping
    }
}
