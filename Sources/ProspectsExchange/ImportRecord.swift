import Foundation
import ProspectStore
import ProspectsCore

/// A row of a list being imported (a CRM export), before validation.
///
/// Values are as the file wrote them, except that the `'` formula guard our CSV export adds is removed.
/// Checking the name and address, and deduplicating, is the caller's job.
public struct ImportRecord: Sendable, Hashable {
    public var name: String
    public var email: String
    /// The phone number, or nil when the column is absent or the cell empty.
    public var phone: String?
    /// More phones of the same person (Outlook's several phone columns, a Google Contacts cell `+1 555 ::: +44 20`),
    /// after `phone`.
    public var otherPhones: [String] = []
    /// The organisation, or nil when the column is absent or the cell empty.
    public var organization: String?
    /// Whether the prospect was contacted, or nil when the file does not say.
    public var contacted: Bool?
    /// When the prospect was first added (our own export's `createdAt`), or nil when the file does not say.
    public var createdAt: Date?
    /// The prospect's reminder (our own export's `remindAt`), or nil when there is none.
    public var remindAt: Date?
    /// More addresses of the same person (a Google Contacts cell `a@x.com ::: b@y.com`), after `email`; import takes
    /// the first valid one of all as the address, and keeps the others.
    public var otherEmails: [String] = []
    /// A job title (our export's `title`), or nil.
    public var title: String?
    /// The name in vCard's five parts (family, given, additional, prefix, suffix: our export's columns), or nil.
    public var nameParts: [String]?
    /// A whole vCard (from a `.vcf` file), which import parses as a scanned vCard; `name` and `email` are then empty.
    public var card: [UInt8]?
    /// What a lead exported from a store carries (notes with their authors and times, rating, tags, history), or
    /// nil when the row says none of it: our own JSON Lines export, or a CSV's rating and tags columns.
    public var carried: CarriedLead?
    /// The card's notes are all in `carried` with their authors and times (a vCard Prospects wrote): its first
    /// `NOTE` is not recorded again as the card's own.
    public var replacesCardNote = false
    /// Notes the file gives as text alone (a CSV's notes column, Google's Notes): the import signs and dates them.
    public var plainNotes: [String] = []
    /// The 1-based line of the file the record starts on, for messages.
    public var line: Int
    /// The optional cells that could not be read (a reminder that is no date), each said in a few words; the record
    /// goes in without them.
    public var ignored: [String] = []

    public init(
        name: String, email: String, phone: String? = nil, organization: String? = nil, contacted: Bool? = nil,
        createdAt: Date? = nil, remindAt: Date? = nil, line: Int
    ) {
        self.name = name
        self.email = email
        self.phone = phone
        self.organization = organization
        self.contacted = contacted
        self.createdAt = createdAt
        self.remindAt = remindAt
        self.line = line
    }

    /// A cell's values split at `:::` (Google Contacts' separator), trimmed, blanks dropped; one value when there is
    /// no separator, even a blank one.
    public static func splitMultipleValues(_ cell: String) -> [String] {
        guard hasSeparator(cell) else { return [cell] }
        let values = cell.components(separatedBy: ":::").map { $0.trimmingASCIISpaces() }.filter { !$0.isEmpty }
        return values.isEmpty ? [""] : values
    }

    /// Whether `cell` holds `:::`, by its bytes: this runs for every row's address cell, and `String.contains`
    /// goes through Foundation.
    static func hasSeparator(_ cell: String) -> Bool {
        func search(_ bytes: some Sequence<UInt8>) -> Bool {
            var colons = 0
            for byte in bytes {
                colons = byte == UInt8(ascii: ":") ? colons + 1 : 0
                if colons == 3 { return true }
            }
            return false
        }
        return cell.utf8.withContiguousStorageIfAvailable { search($0) } ?? search(cell.utf8)
    }
}
