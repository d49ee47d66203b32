/// The few expressions the two stores spell differently, for the SQL `ProspectSQL` writes for both.
struct SQLDialect {
    /// `NameKey.searchKey` of a text expression: lowercased and folded, as `search` compares.
    let searchKey: @Sendable (String) -> String
    /// Whether the text `haystack` contains the text `needle` (no pattern characters).
    let contains: @Sendable (_ haystack: String, _ needle: String) -> String
    /// A prospect's other addresses, in order, joined with line feeds (which no address holds); NULL for none.
    let otherEmails: String
    /// A prospect's tags joined with line feeds (which no tag holds); NULL for none.
    let tags: String
}
