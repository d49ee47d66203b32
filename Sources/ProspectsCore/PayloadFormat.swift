/// The kind of contact code a payload was recognised as.
public enum PayloadFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// The Hot Prospects contract: `Name` and `email` on two lines.
    case lines
    /// NTT DoCoMo `MECARD:N:…;EMAIL:…;;`.
    case mecard
    /// vCard 2.1, 3.0 or 4.0.
    case vcard
    /// DoCoMo `MATMSG:TO:…;;` (an email to write; no name).
    case matmsg
    /// A `mailto:` link (no name).
    case mailto
    /// One line, `Name <email>` or `"Name" <email>`.
    case nameAddress
    /// One line holding an address alone (no name).
    case address
}
