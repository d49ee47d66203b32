/// The few expressions the two stores spell differently, for the SQL `ProspectSQL` writes for both.
struct SQLDialect {
    /// `NameKey.fold(name_key)`, for `list --sort name`.
    let foldedNameKey: String
    /// A prospect's other addresses, in order, joined with line feeds (which no address holds); NULL for none.
    let otherEmails: String
}
