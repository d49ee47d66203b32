/// What a code that is no contact may still be: a badge holding an attendee ID, which the event's roster turns
/// into a person. Pure: the lookup itself is the loader's.
public enum BadgeCode {
    /// The longest text taken whole as an ID.
    public static let maxIDBytes = 256

    /// The attendee ID `text` holds: what `pattern` takes from it when it matches, else the whole text (trimmed)
    /// when it is one line of at most `maxIDBytes` bytes with no control character; nil when it can be no ID.
    public static func attendeeID(in text: String, pattern: BadgePattern?) -> String? {
        if let pattern, let id = pattern.attendeeID(in: text) { return id }
        var whole = Substring(text)
        while let first = whole.first, first == " " || first == "\t" { whole = whole.dropFirst() }
        while let last = whole.last, last == " " || last == "\t" { whole = whole.dropLast() }
        guard !whole.isEmpty, whole.utf8.count <= maxIDBytes,
            !whole.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return String(whole)
    }
}
