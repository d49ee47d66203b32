import Foundation
import ProspectStore
import ProspectsCore

/// Writes prospects one at a time in a format, into a byte sink; so `export` streams.
///
/// `header()` once, then `record(_:)` per prospect; each returns complete lines the caller writes as they come.
public struct ProspectExporter: Sendable {
    public let format: ExportFormat
    /// CSV only: the `'` before cells a spreadsheet would run as formulas (`CSVField`).
    public let guardsFormulas: Bool

    public init(format: ExportFormat, guardsFormulas: Bool = true) {
        self.format = format
        self.guardsFormulas = guardsFormulas
    }

    /// The CSV columns, in order. `id` comes first so a row can be matched back to the store; it is lowercase
    /// because Excel mistakes a file starting with `ID` for a SYLK file.
    public static let csvColumns = [
        "id", "name", "email", "phone", "organization", "contacted", "createdAt", "lastSeenAt", "scanCount", "remindAt",
    ]

    /// The CSV header row (CRLF-terminated), or "" for formats without one.
    public func header() -> String {
        switch format {
        case .csv: ProspectExporter.csvColumns.joined(separator: ",") + "\r\n"
        case .json, .vcard: ""
        }
    }

    /// One CSV row (CRLF), one JSON line (LF), or one vCard (CRLF lines).
    public func record(_ prospect: StoredProspect) -> String {
        switch format {
        case .csv: csvRow(prospect)
        case .json: ProspectExporter.jsonObject(prospect).rendered + "\n"
        case .vcard: VCardWriter.card(prospect)
        }
    }

    private func csvRow(_ stored: StoredProspect) -> String {
        let fields = [
            String(stored.id), stored.prospect.name, stored.prospect.email, stored.prospect.phone ?? "",
            stored.prospect.organization ?? "", stored.isContacted ? "true" : "false",
            ISO8601.string(stored.createdAt), ISO8601.string(stored.lastSeenAt), String(stored.scanCount),
            stored.remindAt.map(ISO8601.string) ?? "",
        ]
        return fields.map { CSVField.escape($0, guardingFormulas: guardsFormulas) }.joined(separator: ",") + "\r\n"
    }

    /// The keys and order of `prospects list --json` and of the JSON Lines export: one shape, one meaning.
    public static func jsonObject(_ stored: StoredProspect) -> JSONLine {
        var line = JSONLine()
        line.add("id", stored.id)
        line.add("name", stored.prospect.name)
        line.add("email", stored.prospect.email)
        line.add("contacted", stored.isContacted)
        line.add("createdAt", stored.createdAt)
        line.add("lastSeenAt", stored.lastSeenAt)
        line.add("scanCount", stored.scanCount)
        line.add("phone", stored.prospect.phone)
        line.add("organization", stored.prospect.organization)
        line.add("remindAt", stored.remindAt)
        line.add("source", stored.firstSource)
        return line
    }
}
