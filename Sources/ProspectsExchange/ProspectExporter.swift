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
    /// CSV only: another product's columns (`CSVProfile`) in place of ours.
    public let profile: CSVProfile?

    public init(format: ExportFormat, guardsFormulas: Bool = true, profile: CSVProfile? = nil) {
        self.format = format
        self.guardsFormulas = guardsFormulas
        self.profile = format == .csv ? profile : nil
    }

    /// The CSV columns, in order. `id` comes first so a row can be matched back to the store; it is lowercase
    /// because Excel mistakes a file starting with `ID` for a SYLK file.
    public static let csvColumns = [
        "id", "name", "email", "phone", "organization", "contacted", "createdAt", "lastSeenAt", "scanCount", "remindAt",
        "title", "familyName", "givenName", "additionalNames", "honorificPrefix", "honorificSuffix", "otherEmails",
        "otherPhones", "rating", "tags", "notes",
    ]

    /// The CSV header row (CRLF-terminated), or "" for formats without one.
    public func header() -> String {
        switch format {
        case .csv:
            (profile?.columns ?? ProspectExporter.csvColumns).map { CSVField.escape($0, guardingFormulas: false) }
                .joined(separator: ",") + "\r\n"
        case .json, .vcard: ""
        }
    }

    /// One CSV row (CRLF), one JSON line (LF), or one vCard (CRLF lines), without notes.
    public func record(_ prospect: StoredProspect) -> String {
        record(prospect, notes: [])
    }

    /// One record with the prospect's `notes` (`ProspectStore.notes(of:)`), oldest first, and for JSON Lines its
    /// scan `history` (`ProspectStore.history(of:)`), so that importing the line gives the lead back whole.
    public func record(_ prospect: StoredProspect, notes: [ProspectNote], history: [ScanRecord] = []) -> String {
        switch format {
        case .csv: csvRow(prospect, notes: notes)
        case .json: ProspectExporter.jsonObject(prospect, notes: notes, history: history).rendered + "\n"
        case .vcard: VCardWriter.card(prospect, notes: notes)
        }
    }

    /// Whether `record` writes the scan history, which the caller then reads for it.
    public var writesHistory: Bool { format == .json }

    /// Several values in one CSV cell: Google Contacts' separator, which import splits on.
    public static let multipleValueSeparator = " ::: "

    private func csvRow(_ stored: StoredProspect, notes: [ProspectNote]) -> String {
        if let profile {
            return profile.fields(stored, notes: notes).map { CSVField.escape($0, guardingFormulas: guardsFormulas) }
                .joined(separator: ",") + "\r\n"
        }
        let parts = stored.prospect.nameParts ?? NameParts()
        let separator = Self.multipleValueSeparator
        let fields =
            [
                String(stored.id), stored.prospect.name, stored.prospect.email, stored.prospect.phone ?? "",
                stored.prospect.organization ?? "", stored.isContacted ? "true" : "false",
                ISO8601.string(stored.createdAt), ISO8601.string(stored.lastSeenAt), String(stored.scanCount),
                stored.remindAt.map(ISO8601.string) ?? "", stored.prospect.title ?? "",
            ] + parts.components + [
                stored.prospect.otherEmails.joined(separator: separator),
                stored.prospect.otherPhones.joined(separator: separator), stored.rating.rawValue,
                stored.tags.joined(separator: separator), notes.map(\.text).joined(separator: separator),
            ]
        return fields.map { CSVField.escape($0, guardingFormulas: guardsFormulas) }.joined(separator: ",") + "\r\n"
    }

    /// The keys and order of `prospects list --json` and of the JSON Lines export: one shape, one meaning.
    public static func jsonObject(_ stored: StoredProspect, notes: [ProspectNote] = [], history: [ScanRecord] = [])
        -> JSONLine
    {
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
        line.add("title", stored.prospect.title)
        if let parts = stored.prospect.nameParts {
            var object = JSONLine()
            object.add("family", parts.family)
            object.add("given", parts.given)
            object.add("additional", parts.additional)
            object.add("prefix", parts.prefix)
            object.add("suffix", parts.suffix)
            line.add("nameParts", object: object)
        }
        line.add("otherEmails", rawArray: stored.prospect.otherEmails.map(JSONLine.quote))
        line.add("otherPhones", rawArray: stored.prospect.otherPhones.map(JSONLine.quote))
        line.add("rating", stored.rating.rawValue)
        line.add("tags", rawArray: stored.tags.map(JSONLine.quote))
        line.add("event", stored.firstEvent)
        line.add("collectedBy", stored.firstCollectedBy)
        if !notes.isEmpty {
            line.add(
                "notes",
                array: notes.map { note in
                    var object = JSONLine()
                    object.add("writtenAt", note.writtenAt)
                    object.add("author", note.author)
                    object.add("text", note.text)
                    return object
                })
        }
        if !history.isEmpty {
            line.add(
                "history",
                array: history.map { scan in
                    var object = JSONLine()
                    object.add("source", scan.source)
                    object.add("seenAt", scan.seenAt)
                    object.add("event", scan.event)
                    object.add("collectedBy", scan.collectedBy)
                    return object
                })
        }
        return line
    }
}
