import ProspectStore
import ProspectsCore

/// A CSV layout for one product's import: its own column names, so that its import wizard maps every column
/// without help. The plain CSV (no profile) is our own layout, which `import` reads back whole.
public enum CSVProfile: String, Sendable, CaseIterable {
    /// HubSpot's contact import (default contact properties).
    case hubspot
    /// Salesforce's lead import (Data Import Wizard, Data Loader): Last Name and Company are required there.
    case salesforce
    /// Google Contacts' own CSV (what its export writes and its import reads).
    case google

    /// What Salesforce's Web-to-Lead writes in a required field the form left empty; written here for the same
    /// reason, so that a lead without a company is imported rather than refused, and is easy to find.
    public static let notProvided = "[not provided]"

    /// The header row's column names, in order.
    public var columns: [String] {
        switch self {
        case .hubspot:
            [
                "First Name", "Last Name", "Email", "Phone Number", "Company Name", "Job Title", "Lead Status",
                "Notes",
            ]
        case .salesforce:
            [
                "First Name", "Last Name", "Email", "Phone", "Company", "Title", "Rating", "Lead Status",
                "Lead Source", "Description",
            ]
        case .google:
            [
                "First Name", "Middle Name", "Last Name", "Name Prefix", "Name Suffix", "Organization Name",
                "Organization Title", "Notes", "Labels", "E-mail 1 - Label", "E-mail 1 - Value", "E-mail 2 - Label",
                "E-mail 2 - Value", "Phone 1 - Label", "Phone 1 - Value", "Phone 2 - Label", "Phone 2 - Value",
            ]
        }
    }

    /// One row's cells, in `columns` order, before CSV escaping.
    public func fields(_ stored: StoredProspect, notes: [ProspectNote]) -> [String] {
        let prospect = stored.prospect
        let parts = Self.parts(of: prospect)
        let separator = ProspectExporter.multipleValueSeparator
        switch self {
        case .hubspot:
            return [
                parts.given, parts.family, prospect.email, prospect.phone ?? "", prospect.organization ?? "",
                prospect.title ?? "", stored.isContacted ? Self.hubSpotContacted : Self.hubSpotNew,
                Self.notesCell(notes, otherPhones: prospect.otherPhones),
            ]
        case .salesforce:
            // A one-word name is the last name there, which is required; so is the company.
            let last = parts.family.isEmpty ? parts.given : parts.family
            let first = parts.family.isEmpty ? "" : parts.given
            let organization = prospect.organization ?? ""
            return [
                first, last.isEmpty ? Self.notProvided : last, prospect.email, prospect.phone ?? "",
                organization.isEmpty ? Self.notProvided : organization, prospect.title ?? "",
                Self.salesforceRating(stored.rating),
                stored.isContacted ? Self.salesforceContacted : Self.salesforceNotContacted, "Trade Show",
                Self.notesCell(notes, otherPhones: prospect.otherPhones),
            ]
        case .google:
            let other = prospect.otherEmails.joined(separator: separator)
            let otherPhones = prospect.otherPhones.joined(separator: separator)
            return [
                parts.given, parts.additional, parts.family, parts.prefix, parts.suffix, prospect.organization ?? "",
                prospect.title ?? "", notes.map(\.text).joined(separator: "\n\n"),
                stored.tags.joined(separator: separator), "* Work", prospect.email, other.isEmpty ? "" : "Other",
                other, prospect.phone == nil ? "" : "Work", prospect.phone ?? "", otherPhones.isEmpty ? "" : "Other",
                otherPhones,
            ]
        }
    }

    /// The notes column of a profile with one phone column: the notes, then the other phones on a line of their own
    /// (`Other phones: …`), which the CRM would otherwise not be given.
    static func notesCell(_ notes: [ProspectNote], otherPhones: [String]) -> String {
        var paragraphs = notes.map(\.text)
        if !otherPhones.isEmpty { paragraphs.append("Other phones: " + otherPhones.joined(separator: ", ")) }
        return paragraphs.joined(separator: "\n\n")
    }

    /// The card's own name parts, else the display name split as vCard's `N` is (`PersonName`).
    static func parts(of prospect: Prospect) -> NameParts {
        if let parts = prospect.nameParts, !parts.family.isEmpty || !parts.given.isEmpty { return parts }
        let (family, given) = PersonName.familyAndGiven(prospect.name)
        return NameParts(family: family, given: given)
    }

    /// HubSpot's default Lead Status options for a contact not yet reached and one reached out to.
    static let hubSpotNew = "New"
    static let hubSpotContacted = "Attempted to Contact"
    /// Salesforce's default Lead Status picklist values for the same two states.
    static let salesforceNotContacted = "Open - Not Contacted"
    static let salesforceContacted = "Working - Contacted"

    /// Salesforce's standard lead ratings are Hot, Warm and Cold, as ours.
    private static func salesforceRating(_ rating: ProspectRating) -> String {
        switch rating {
        case .hot: "Hot"
        case .warm: "Warm"
        case .cold: "Cold"
        case .none: ""
        }
    }
}
