/// A contact read from a QR code: who they are and how to reach them.
///
/// The email address is the prospect's identity; `key` is the normalised form that deduplication uses.
public struct Prospect: Sendable, Hashable, Codable {
    /// The display name, trimmed and in Unicode NFC.
    public var name: String
    /// The email address as written (trimmed, NFC); see `key` for the form used to compare.
    public var email: String
    /// A phone number, when the payload carried one (MECARD, vCard).
    public var phone: String?
    /// An organisation, when the payload carried one (MECARD, vCard).
    public var organization: String?

    public init(name: String, email: String, phone: String? = nil, organization: String? = nil) {
        self.name = name
        self.email = email
        self.phone = phone
        self.organization = organization
    }

    /// The deduplication key: the normalised email address (see `DedupKey`).
    public var key: String { DedupKey.make(email) }
}
