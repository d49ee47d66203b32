/// The few expressions the two stores spell differently, for the SQL `ProspectSQL` writes for both.
struct SQLDialect {
    /// `NameKey.searchKey` of a text expression: lowercased and folded, as `search` compares.
    let searchKey: @Sendable (String) -> String
    /// Whether the text `haystack` contains the text `needle` (no pattern characters).
    let contains: @Sendable (_ haystack: String, _ needle: String) -> String
    /// A prospect's other addresses, in order, joined with line feeds (which no address holds); NULL for none.
    let otherEmails: String
    /// A prospect's other phones, in order, joined with line feeds (which no phone holds); NULL for none.
    let otherPhones: String
    /// A prospect's tags joined with line feeds (which no tag holds); NULL for none.
    let tags: String
    /// The clause that makes a subquery in FROM yield its rows in `order` (an id order) to the query around it, or
    /// nil where the planner sorts its own way regardless (PostgreSQL's top-N heap sort).
    var scanOrder: @Sendable (_ order: String) -> String? = { _ in nil }
}
