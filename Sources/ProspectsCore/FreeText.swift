/// What a person types beside a card — a note, a tag, an event, a collector's name — checked as a card's own fields
/// are: trimmed, NFC, no control, bidi or invisible character (a note may hold line breaks and tabs).
public enum FreeText {
    /// A note, line breaks written LF; nil when blank.
    public static func note(_ raw: String) -> Result<String?, ScanError> {
        ProspectBuilder.cleanNote(raw)
    }

    /// One line of text for `field` (`tag`, `event`, `collector`); nil when blank.
    public static func line(_ raw: String, field: String) -> Result<String?, ScanError> {
        ProspectBuilder.cleanOptional(raw, field: field)
    }
}
