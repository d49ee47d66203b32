import Foundation

/// How an update names its prospect: by email (compared through `DedupKey`) or by id.
public enum ProspectReference: Sendable, Hashable {
    case email(String)
    case id(Int64)

    /// `42` or `#42` is an id, spaces around it ignored as they are around an address (pasted from the table);
    /// anything else is an email address.
    public init(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
        if let id = Int64(digits), id > 0 { self = .id(id) } else { self = .email(text) }
    }
}
