import ProspectsCore

/// The text `ProspectQuery.search` looks in, stored per prospect (`search_key`) so that a search folds nothing per
/// row: the name, address, organisation, title, notes and tags, each folded as `NameKey.searchKey` folds, one per
/// line. A search word holds no white space, so it is found within one of them, never across two.
enum SearchKey {
    /// The key of a prospect's fields; `nameKey` and `emailKey` are its `NameKey` and `DedupKey`, already lowercase
    /// and NFC, so only folded: this runs for every row an import writes.
    static func make(
        nameKey: String, emailKey: String, organization: String?, title: String?, notes: [String] = [],
        tags: [String] = []
    ) -> String {
        make(
            foldedName: NameKey.fold(nameKey), emailKey: emailKey, organization: organization, title: title,
            notes: notes, tags: tags)
    }

    /// `make` from the name key already folded (`NameKey.fold`), which the sort key needs too.
    static func make(
        foldedName: String, emailKey: String, organization: String?, title: String?, notes: [String] = [],
        tags: [String] = []
    ) -> String {
        // Built as bytes, then made a String once.
        var key = Array(foldedName.utf8)
        key.append(0x0A)
        key.append(contentsOf: NameKey.fold(emailKey).utf8)
        func add(_ text: String?) {
            guard let text, !text.isEmpty else { return }
            key.append(0x0A)
            key.append(contentsOf: NameKey.searchKey(text).utf8)
        }
        add(organization)
        add(title)
        for note in notes { add(note) }
        for tag in tags { add(tag) }
        return String(decoding: key, as: UTF8.self)
    }
}
