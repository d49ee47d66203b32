/// Which columns of a CSV header hold the fields of an import record.
///
/// Header names are compared after lowercasing and dropping everything but letters and digits, so `E-mail`,
/// `email_address` and `Email Address` all match; the first matching column wins. Names cover our own export and
/// the usual CRM and address-book exports (Google Contacts, Outlook).
struct ImportColumns: Sendable, Equatable {
    enum Name: Sendable, Equatable {
        case full(Int)
        /// First and last name columns, joined with a space; either may be missing, not both. Google Contacts'
        /// middle name, prefix and suffix columns join them in their places.
        case parts(first: Int?, last: Int?, middle: Int? = nil, prefix: Int? = nil, suffix: Int? = nil)
    }

    /// Every column a field is read from: the others are named in the import's summary, never dropped in silence.
    var used: Set<Int> = []

    var name: Name
    var email: Int
    /// Every phone column, in the aliases' order: a row's first phone is its phone (Outlook writes Business Phone
    /// before Mobile Phone, and many rows fill only one of them), the others its other phones.
    var phones: [Int]
    var organization: Int?
    var contacted: Int?
    var createdAt: Int?
    var remindAt: Int?
    var title: Int?
    /// Our export's five name-part columns, in vCard's order, each nil when absent.
    var nameParts: [Int?] = []
    /// Every column of more addresses (Google's `E-mail 2 - Value`, Outlook's `E-mail 2 Address`…), in order.
    var otherEmails: [Int] = []
    /// The team's rating, tags and notes (our export's columns; Salesforce's `Rating` and `Description`, Google's
    /// `Labels` and `Notes`).
    var rating: Int?
    var tags: Int?
    var notes: Int?
    /// Google's and Outlook's nickname: the name of a row that has no other.
    var nickname: Int?

    static let fullNameAliases = ["name", "fullname", "fn", "displayname"]
    static let firstNameAliases = ["firstname", "givenname"]
    static let lastNameAliases = ["lastname", "familyname", "surname"]
    static let emailAliases = ["email", "emailaddress", "mail", "email1value"]
    static let phoneAliases = [
        "phone", "tel", "telephone", "phonenumber", "mobile", "mobilephone", "phone1value", "businessphone",
        "workphone", "phone2value", "phone3value", "businessphone2", "homephone", "homephone2", "otherphone",
        "otherphones",
    ]
    static let organizationAliases = [
        "organization", "organisation", "company", "org", "organization1name", "companyname", "organizationname",
        "organisationname", "account", "accountname",
    ]
    static let contactedAliases = ["contacted", "iscontacted", "leadstatus", "hsleadstatus"]
    static let createdAtAliases = ["createdat", "added"]
    static let remindAtAliases = ["remindat", "reminder"]
    /// A job title; `title` alone only when no column says `Job Title`: Outlook writes both, its `Title` being the
    /// honorific (`Ms.`).
    static let titleAliases = ["jobtitle", "organizationtitle", "organization1title", "title"]
    static let namePartNames = ["familyname", "givenname", "additionalnames", "honorificprefix", "honorificsuffix"]
    static let otherEmailsAliases = [
        "otheremails", "email2value", "email3value", "email4value", "email2address", "email3address",
    ]
    static let ratingAliases = ["rating", "leadrating"]
    static let tagsAliases = ["tags", "labels", "categories", "grouplabels"]
    static let notesAliases = ["notes", "note", "description"]

    /// Matches `header`; throws `.missingColumn` when no column holds the name or the email address.
    init(header: [String]) throws(ImportError) {
        let keys = header.map(ImportColumns.normalize)
        var used: Set<Int> = []
        func column(_ aliases: [String]) -> Int? {
            let found = keys.firstIndex(where: aliases.contains)
            if let found { used.insert(found) }
            return found
        }
        /// The first column named by the first alias that names one: aliases in order of preference.
        func preferred(_ aliases: [String]) -> Int? {
            for alias in aliases {
                if let found = keys.firstIndex(of: alias) {
                    used.insert(found)
                    return found
                }
            }
            return nil
        }
        let outlookHonorific =
            keys.contains("jobtitle") && keys.contains("title") && !keys.contains("fullname")
            && !keys.contains("name")

        if let full = column(ImportColumns.fullNameAliases) {
            name = .full(full)
        } else {
            let first = column(ImportColumns.firstNameAliases)
            let last = column(ImportColumns.lastNameAliases)
            guard first != nil || last != nil else { throw .missingColumn("name") }
            name = .parts(
                first: first, last: last, middle: column(["middlename"]),
                prefix: column(outlookHonorific ? ["nameprefix", "title"] : ["nameprefix"]),
                suffix: column(["namesuffix", "suffix"]))
        }
        guard let email = column(ImportColumns.emailAliases) else { throw .missingColumn("email") }
        self.email = email
        phones = ImportColumns.phoneAliases.flatMap { alias in keys.indices.filter { keys[$0] == alias } }
        used.formUnion(phones)
        organization = column(ImportColumns.organizationAliases)
        contacted = column(ImportColumns.contactedAliases)
        createdAt = column(ImportColumns.createdAtAliases)
        remindAt = column(ImportColumns.remindAtAliases)
        title = preferred(ImportColumns.titleAliases.filter { !outlookHonorific || $0 != "title" })
        // Only beside a full name column: without one, the family and given name columns are the name.
        if case .full = name {
            nameParts = ImportColumns.namePartNames.map { keys.firstIndex(of: $0) }
            used.formUnion(nameParts.compactMap { $0 })
        }
        otherEmails = keys.indices.filter { ImportColumns.otherEmailsAliases.contains(keys[$0]) }
        used.formUnion(otherEmails)
        rating = column(ImportColumns.ratingAliases)
        tags = column(ImportColumns.tagsAliases)
        notes = column(ImportColumns.notesAliases)
        nickname = column(["nickname"])
        // Read by their own names: our export's bookkeeping, and the labels of Google's values.
        for (index, key) in keys.enumerated() where ImportColumns.readElsewhere.contains(key) { used.insert(index) }
        self.used = used
    }

    /// Columns no field is read from that are no loss: our export's id and counts (the store keeps its own), and
    /// the labels Google writes beside each value (`E-mail 1 - Label`: `* Work`).
    static let readElsewhere: Set<String> = [
        "id", "lastseenat", "scancount", "email1label", "email2label", "phone1label", "phone2label", "phone3label",
    ]

    /// `E-Mail Address` → `emailaddress`.
    static func normalize(_ header: String) -> String {
        var key = ""
        for scalar in header.lowercased().unicodeScalars
        where scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
            key.unicodeScalars.append(scalar)
        }
        return key
    }

    /// For messages: the header names accepted for a required field.
    static func acceptedNames(for field: String) -> String {
        switch field {
        case "name": "name, full name, fn, display name, or first name and/or last name"
        case "email": "email, e-mail, email address, mail"
        default: field
        }
    }

    /// `true`/`yes`/`y`/`1` and `false`/`no`/`n`/`0`, any case, surrounding spaces ignored, and the CRMs' lead
    /// statuses (HubSpot's labels and internal values, Salesforce's defaults): a lead not reached yet (`New`,
    /// `Open`, `Open - Not Contacted`) or one reached out to (any other); nil for anything else.
    static func parseContacted(_ text: String) -> Bool? {
        switch text.trimmingASCIISpaces().lowercased() {
        case "true", "yes", "y", "1": true
        case "false", "no", "n", "0": false
        case "new", "open", "open - not contacted": false
        case "attempted to contact", "attempted_to_contact", "connected", "in progress", "in_progress", "open deal",
            "open_deal", "unqualified", "bad timing", "bad_timing", "working - contacted", "closed - converted",
            "closed - not converted":
            true
        default: nil
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces and tabs; no Foundation needed.
    func trimmingASCIISpaces() -> String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        return String(self[first...last])
    }
}
