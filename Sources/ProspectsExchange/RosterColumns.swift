/// Which columns of an attendee list hold what: found by the header's names, by a named profile, or as given
/// (`--columns id=Badge,email=E-mail`).
public struct RosterColumns: Sendable, Hashable {
    /// The fields a roster row has; the raw value is the name `--columns` uses.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case id, name, first, last, email, company, title, phone
    }

    /// A product's attendee export, whose column names are known.
    public enum Profile: String, Sendable, Hashable, CaseIterable {
        /// Eventbrite's attendee report (Manage attendees → Reports → Attendee summary, CSV). The badge's code
        /// holds the barcode number.
        case eventbrite

        /// The header name of each field the profile has.
        public var columns: [Field: String] {
            switch self {
            case .eventbrite:
                [
                    .id: "Barcode #", .first: "First Name", .last: "Last Name", .email: "Email",
                    .company: "Company", .title: "Job Title", .phone: "Work Phone",
                ]
            }
        }
    }

    /// The column of each field the header has.
    let indices: [Field: Int]
    /// The header's names, as read.
    let header: [String]

    /// Header names taken for an attendee ID when no profile or `--columns` says, best first.
    static let idAliases = [
        "barcode", "barcodenumber", "badgeid", "badgenumber", "badge", "ticketnumber", "ticketid", "ticket",
        "registrationid", "registrationnumber", "registration", "attendeeid", "attendeenumber", "attendee", "id",
    ]

    /// Finds the columns in `header`: `given` (from `--columns`) first, then `profile`'s names, then the usual
    /// names of each field. An ID and a name (full, or first and/or last) are required.
    init(header: [String], profile: Profile?, given: [Field: String]) throws(RosterError) {
        let keys = header.map(ImportColumns.normalize)
        var indices: [Field: Int] = [:]
        for (field, name) in given {
            guard let index = keys.firstIndex(of: ImportColumns.normalize(name)) else {
                throw .missingColumn(name, field: field, found: header)
            }
            indices[field] = index
        }
        for (field, name) in profile?.columns ?? [:] where indices[field] == nil {
            if let index = keys.firstIndex(of: ImportColumns.normalize(name)) { indices[field] = index }
        }
        func find(_ field: Field, _ aliases: [String]) {
            guard indices[field] == nil else { return }
            for alias in aliases {
                if let index = keys.firstIndex(of: alias) {
                    indices[field] = index
                    return
                }
            }
        }
        find(.id, Self.idAliases)
        if indices[.first] == nil && indices[.last] == nil { find(.name, ImportColumns.fullNameAliases) }
        if indices[.name] == nil {
            find(.first, ImportColumns.firstNameAliases)
            find(.last, ImportColumns.lastNameAliases)
        }
        find(.email, ImportColumns.emailAliases)
        find(.company, ImportColumns.organizationAliases)
        find(.title, ImportColumns.titleAliases)
        find(.phone, ImportColumns.phoneAliases)
        guard indices[.id] != nil else {
            throw .missingColumn(profile?.columns[.id] ?? "ID", field: .id, found: header)
        }
        guard indices[.name] != nil || indices[.first] != nil || indices[.last] != nil else {
            throw .missingColumn(profile?.columns[.first] ?? "name", field: .name, found: header)
        }
        self.indices = indices
        self.header = header
    }

    /// `id=Badge ID,email=E-mail`: field names, each with the header name of its column.
    public static func parse(_ text: String) throws(RosterError) -> [Field: String] {
        var given: [Field: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingASCIISpaces() }
            guard parts.count == 2, let field = Field(rawValue: parts[0].lowercased()), !parts[1].isEmpty else {
                throw .invalidColumns(String(pair))
            }
            given[field] = parts[1]
        }
        guard !given.isEmpty else { throw .invalidColumns(text) }
        return given
    }
}
