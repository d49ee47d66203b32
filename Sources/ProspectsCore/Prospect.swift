/// A contact read from a QR code: who they are and how to reach them.
///
/// The email address is the prospect's identity; `key` is the normalised form that deduplication uses.
public struct Prospect: Sendable, Hashable, Codable {
    /// The display name, trimmed and in Unicode NFC.
    public var name: String
    /// The email address as written (trimmed, NFC); see `key` for the form used to compare.
    public var email: String
    /// A phone number, when the payload carried one (MECARD, vCard): the first of its phones.
    public var phone: String?
    /// The card's other phone numbers after `phone`, in the order written, none repeating an earlier one.
    public var otherPhones: [String]
    /// An organisation, when the payload carried one (MECARD, vCard).
    public var organization: String?
    /// A job title (vCard and MECARD `TITLE`).
    public var title: String?
    /// The name in its parts, when the card wrote them (`N`); nil when it did not.
    public var nameParts: NameParts?
    /// The card's other valid addresses after `email`, in the order written, none with `email`'s dedup key.
    public var otherEmails: [String]
    /// The card's `NOTE`: the prospect's first note, which the store records as written by whoever collected it.
    public var note: String?

    public init(
        name: String, email: String, phone: String? = nil, organization: String? = nil, title: String? = nil,
        nameParts: NameParts? = nil, otherEmails: [String] = [], note: String? = nil, otherPhones: [String] = []
    ) {
        self.name = name
        self.email = email
        self.phone = phone
        self.otherPhones = otherPhones
        self.organization = organization
        self.title = title
        self.nameParts = nameParts
        self.otherEmails = otherEmails
        self.note = note
    }

    /// The deduplication key: the normalised email address (see `DedupKey`).
    public var key: String { DedupKey.make(email) }
}
