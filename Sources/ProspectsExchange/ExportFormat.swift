/// The formats `export` writes a list in.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// RFC 4180 CSV with a header row, CRLF line ends and a formula-injection guard; opens in spreadsheets.
    case csv
    /// JSON Lines: one object per line, the same keys as `prospects list --json`.
    case json
    /// vCard 4.0 (RFC 6350), one card per prospect; imports into address books.
    case vcard

    /// The usual file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .csv: "csv"
        case .json: "jsonl"
        case .vcard: "vcf"
        }
    }
}
