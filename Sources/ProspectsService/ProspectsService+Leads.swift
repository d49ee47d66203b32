import Foundation
import ProspectStore
import ProspectsCore

/// Working a lead: finding it, its notes, rating and tags, and correcting its fields. Every value a person typed is
/// checked as a scanned card's fields are before the store sees it.
extension ProspectsService {
    /// The lead `text` names: an email address or an id (`42`, `#42`), else a search (`ProspectQuery.search`) that
    /// matches exactly one lead.
    public func lookUp(_ text: String) throws(StoreError) -> LeadLookup {
        let store = try store()
        if let stored = try store.prospect(ProspectReference(parsing: text)) { return .found(stored) }
        guard !text.allSatisfy(\.isWhitespace) else { return .none }
        let matches = try store.list(ProspectQuery(search: text, limit: 6))
        switch matches.count {
        case 0: return .none
        case 1: return .found(matches[0])
        default: return .several(matches)
        }
    }

    /// Everything known about one lead: its notes and each scan's event and collector included.
    public func details(of stored: StoredProspect) throws(StoreError) -> ProspectDetails {
        let store = try store()
        return ProspectDetails(
            stored: stored, history: try store.history(of: stored.id), notes: try store.notes(of: stored.id))
    }

    /// Appends a note by `author` at `date`; returns it as stored.
    public func addNote(_ reference: ProspectReference, text: String, author: String, at date: Date)
        throws(LeadChangeError) -> ProspectNote
    {
        let note: String
        let author = try checked(FreeText.line(author, field: "author")) ?? ""
        switch FreeText.note(text) {
        case .success(let cleaned?): note = cleaned
        case .success(nil): throw .nothingGiven("the note is empty")
        case .failure(let error): throw .invalid(error)
        }
        guard try changing({ () throws(StoreError) in try store().addNote(reference, note, author: author, at: date) })
        else { throw .notFound }
        return ProspectNote(writtenAt: date, author: author, text: note)
    }

    /// Rates a lead (`.none` clears the rating).
    public func setRating(_ reference: ProspectReference, _ rating: ProspectRating) throws(LeadChangeError) {
        guard try changing({ () throws(StoreError) in try store().setRating(reference, rating) }) else {
            throw .notFound
        }
    }

    /// Adds and removes tags (one it has, or lacks, is no error); returns the lead's tags after.
    public func changeTags(_ reference: ProspectReference, adding: [String], removing: [String])
        throws(LeadChangeError) -> [String]
    {
        var add: [String] = []
        var remove: [String] = []
        for (raw, into) in adding.map({ ($0, true) }) + removing.map({ ($0, false) }) {
            guard let tag = try checked(FreeText.line(raw, field: "tag")) else { continue }
            if tag.contains(where: { $0.isNewline }) {
                throw .invalid(.unsafeCharacters(field: "tag", scalar: 0x0A))
            }
            if into { add.append(tag) } else { remove.append(tag) }
        }
        guard !add.isEmpty || !remove.isEmpty else { throw .nothingGiven("no tag to add or remove") }
        let tags = try changing { () throws(StoreError) -> [String]? in
            let store = try store()
            guard try store.changeTags(reference, adding: add, removing: remove),
                let stored = try store.prospect(reference)
            else { return nil }
            return stored.tags
        }
        guard let tags else { throw .notFound }
        return tags
    }

    /// Corrects a lead's own fields: nil leaves a field as it is, and for phone, organisation and title an empty
    /// text clears it. The lead as edited must pass the checks a scanned card does; a new address re-keys it, and
    /// one another lead has is refused (`.emailTaken`), naming that lead.
    public func edit(_ reference: ProspectReference, _ edit: ProspectEdit) throws(LeadChangeError) -> StoredProspect {
        let current = try changing { () throws(StoreError) in try store().prospect(reference) }
        guard let current else { throw .notFound }
        let now = current.prospect
        let phone = edit.phone.map { $0 ?? "" } ?? now.phone
        let organization = edit.organization.map { $0 ?? "" } ?? now.organization
        let title = edit.title.map { $0 ?? "" } ?? now.title
        let checked: Prospect
        switch PayloadParser().prospect(
            name: edit.name ?? now.name, email: edit.email ?? now.email, phone: phone, organization: organization,
            title: title)
        {
        case .success(let prospect): checked = prospect
        case .failure(let error): throw .invalid(error)
        }
        let change = ProspectEdit(
            name: edit.name.map { _ in checked.name }, email: edit.email.map { _ in checked.email },
            phone: edit.phone.map { _ in checked.phone },
            organization: edit.organization.map { _ in checked.organization },
            title: edit.title.map { _ in checked.title })
        let outcome = try changing { () throws(StoreError) in try store().edit(.id(current.id), change) }
        switch outcome {
        case .edited(let stored): return stored
        case .notFound: throw .notFound
        case .emailTaken(let other): throw .emailTaken(by: other)
        }
    }

    private func changing<T>(_ body: () throws(StoreError) -> T) throws(LeadChangeError) -> T {
        do {
            return try body()
        } catch {
            throw .store(error)
        }
    }

    private func checked(_ result: Result<String?, ScanError>) throws(LeadChangeError) -> String? {
        switch result {
        case .success(let value): return value
        case .failure(let error): throw .invalid(error)
        }
    }
}
