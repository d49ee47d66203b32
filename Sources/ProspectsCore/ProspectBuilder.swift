import Foundation

/// Turns the raw fields a format yielded into a `Prospect`, with the checks every format shares.
///
/// Each field is trimmed and put in Unicode NFC, then refused if it holds an unsafe scalar (see
/// `SafeText.isUnsafe`): the name and organisation are printed on terminals and the email address is
/// the dedup key, so none may hide control, bidi or invisible characters.
enum ProspectBuilder {
    /// A prospect from already-split fields; `nil` or blank optional fields are left out.
    ///
    /// Fields are checked in order name, email, phone, organisation, title, name parts, note, so the first problem
    /// in that order is the one reported. Other addresses that are not valid, or repeat an earlier one's dedup key,
    /// are left out: a second address is no reason to refuse the card. So are other phones that are blank, unsafe
    /// or repeat an earlier one; the first of them is the phone when `phone` gives none.
    static func build(
        name: String?, email: String?, phone: String? = nil, organization: String? = nil, title: String? = nil,
        nameParts: [String]? = nil, otherEmails: [String] = [], note: String? = nil, otherPhones: [String] = []
    ) -> Result<Prospect, ScanError> {
        Result { () throws(ScanError) -> Prospect in
            let name = try cleanName(name ?? "").get()
            let email = try cleanEmail(email).get()
            var prospect = Prospect(
                name: name, email: email, phone: try cleanOptional(phone, field: "phone").get(),
                organization: try cleanOptional(organization, field: "organization").get())
            if let title { prospect.title = try cleanOptional(title, field: "title").get() }
            if let nameParts {
                let parts = NameParts(
                    components: try nameParts.map { part throws(ScanError) in
                        try cleanOptional(part, field: "name").get() ?? ""
                    })
                prospect.nameParts = parts.isEmpty ? nil : parts
            }
            if !otherEmails.isEmpty { prospect.otherEmails = cleanOtherEmails(otherEmails, besides: email) }
            if !otherPhones.isEmpty {
                var phones = cleanOtherPhones(otherPhones, besides: prospect.phone)
                if prospect.phone == nil, !phones.isEmpty { prospect.phone = phones.removeFirst() }
                prospect.otherPhones = phones
            }
            if let note { prospect.note = try cleanNote(note).get() }
            return prospect
        }
    }

    /// The valid addresses of `raw`, cleaned, without those whose dedup key is `primary`'s or an earlier one's.
    static func cleanOtherEmails(_ raw: [String], besides primary: String) -> [String] {
        var keys: Set<String> = [DedupKey.make(primary)]
        var emails: [String] = []
        for candidate in raw {
            guard case .success(let email) = cleanEmail(candidate), keys.insert(DedupKey.make(email)).inserted else {
                continue
            }
            emails.append(email)
        }
        return emails
    }

    /// The phones of `raw` cleaned as `phone` is (`cleanOptional`), without blank or unsafe ones, nor those written
    /// as `primary` or an earlier one is.
    static func cleanOtherPhones(_ raw: [String], besides primary: String?) -> [String] {
        var phones: [String] = []
        for candidate in raw {
            guard case .success(let cleaned) = cleanOptional(candidate, field: "phone"), let phone = cleaned,
                phone != primary, !phones.contains(phone)
            else { continue }
            phones.append(phone)
        }
        return phones
    }

    /// A note: trimmed, NFC, line breaks written LF, nil when blank; refused when it holds an unsafe scalar other
    /// than a line break or tab, which a note may hold.
    static func cleanNote(_ raw: String) -> Result<String?, ScanError> {
        let text = normalised(raw).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
            of: "\r", with: "\n")
        if let unsafe = text.unicodeScalars.first(where: { $0 != "\n" && $0 != "\t" && SafeText.isUnsafe($0) }) {
            return .failure(.unsafeCharacters(field: "note", scalar: unsafe.value))
        }
        return .success(text.isEmpty ? nil : text)
    }

    /// The name trimmed and in NFC; `.emptyName` when nothing visible is left.
    static func cleanName(_ raw: String) -> Result<String, ScanError> {
        // Text below U+0300 (ASCII and the Latin letters of most names) is checked on its bytes.
        let fast = LatinText.withBytes(of: raw, below: LatinText.latinByteLimit) { bytes -> Result<String, ScanError> in
            let range = LatinText.trimmed(bytes)
            if let unsafe = LatinText.firstUnsafe(in: bytes, range) {
                return .failure(.unsafeCharacters(field: "name", scalar: unsafe))
            }
            guard LatinText.containsVisible(bytes, range) else { return .failure(.emptyName) }
            return .success(LatinText.string(raw, bytes, range))
        }
        return fast ?? generalCleanName(raw)
    }

    /// `cleanName` without the byte-level shortcut.
    static func generalCleanName(_ raw: String) -> Result<String, ScanError> {
        let name = normalised(raw)
        if let unsafe = SafeText.firstUnsafe(in: name) {
            return .failure(.unsafeCharacters(field: "name", scalar: unsafe.value))
        }
        // A name of combining marks, variation selectors or blank braille cells alone draws as nothing.
        guard name.unicodeScalars.contains(where: isVisible) else { return .failure(.emptyName) }
        return .success(name)
    }

    /// The address trimmed, in NFC, free of unsafe scalars and valid (see `EmailAddress.validate`).
    static func cleanEmail(_ raw: String?) -> Result<String, ScanError> {
        guard let raw else { return .failure(.missingEmail) }
        // An ASCII address is trimmed, checked and validated on its bytes.
        let fast = LatinText.withBytes(of: raw, below: 0x80) { bytes -> Result<String, ScanError> in
            let range = LatinText.trimmed(bytes)
            guard !range.isEmpty else { return .failure(.missingEmail) }
            if let unsafe = LatinText.firstUnsafe(in: bytes, range) {
                return .failure(.unsafeCharacters(field: "email", scalar: unsafe))
            }
            let email = LatinText.string(raw, bytes, range)
            let trimmed = UnsafeBufferPointer(rebasing: bytes[range])
            return EmailAddress.validateASCII(trimmed, address: email).mapError {
                .invalidEmail(address: email, reason: $0)
            }
        }
        return fast ?? generalCleanEmail(raw)
    }

    /// `cleanEmail` without the byte-level shortcut.
    static func generalCleanEmail(_ raw: String?) -> Result<String, ScanError> {
        let email = normalised(raw ?? "")
        guard !email.isEmpty else { return .failure(.missingEmail) }
        if let unsafe = SafeText.firstUnsafe(in: email) {
            return .failure(.unsafeCharacters(field: "email", scalar: unsafe.value))
        }
        return EmailAddress.validate(email).mapError { .invalidEmail(address: email, reason: $0) }
    }

    /// A phone number or organisation: trimmed, NFC, `nil` when blank, refused when it holds unsafe scalars.
    ///
    /// Phone numbers are kept as written (`+44 20 7946 0000`, `(555) 010-9999`): formats vary by country
    /// and a prospect list only shows them.
    static func cleanOptional(_ raw: String?, field: String) -> Result<String?, ScanError> {
        guard let raw else { return .success(nil) }
        let fast = LatinText.withBytes(of: raw, below: LatinText.latinByteLimit) {
            bytes -> Result<String?, ScanError> in
            let range = LatinText.trimmed(bytes)
            if let unsafe = LatinText.firstUnsafe(in: bytes, range) {
                return .failure(.unsafeCharacters(field: field, scalar: unsafe))
            }
            return .success(range.isEmpty ? nil : LatinText.string(raw, bytes, range))
        }
        return fast ?? generalCleanOptional(raw, field: field)
    }

    /// `cleanOptional` without the byte-level shortcut.
    static func generalCleanOptional(_ raw: String?, field: String) -> Result<String?, ScanError> {
        guard let raw else { return .success(nil) }
        let text = normalised(raw)
        if let unsafe = SafeText.firstUnsafe(in: text) {
            return .failure(.unsafeCharacters(field: field, scalar: unsafe.value))
        }
        return .success(text.isEmpty ? nil : text)
    }

    private static func normalised(_ raw: String) -> String {
        ScalarText.trimmed(raw).precomposedStringWithCanonicalMapping
    }

    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .spaceSeparator: return false
        default: return !properties.isDefaultIgnorableCodePoint && scalar != "\u{2800}"
        }
    }
}
