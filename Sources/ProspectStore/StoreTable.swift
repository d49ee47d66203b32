import ProspectsCore

/// A table `prospects copy` carries from one store to another, with the columns it reads and writes, in the same
/// names and meaning in both stores. `copied` is the list: a table a later schema adds is one more entry there.
public struct StoreTable: Sendable, Hashable {
    /// How a column's values are read: booleans are integers in SQLite and `boolean` in PostgreSQL.
    public enum Kind: Sendable, Hashable {
        case integer, text, bool
    }

    public let name: String
    public let columns: [(name: String, kind: Kind)]
    /// The columns the rows are read in order of, a unique key: the same order in both stores (text compared by
    /// its bytes), so that a digest of the rows is the same.
    public let key: [String]
    /// The id column whose sequence (PostgreSQL) must continue after the copied ids.
    public let identity: String?
    /// Made on first use (the accounts table): a store may lack it.
    public let madeOnDemand: Bool

    init(
        _ name: String, _ columns: [(String, Kind)], key: [String], identity: String? = nil,
        madeOnDemand: Bool = false
    ) {
        self.name = name
        self.columns = columns.map { (name: $0.0, kind: $0.1) }
        self.key = key
        self.identity = identity
        self.madeOnDemand = madeOnDemand
    }

    public static func == (left: StoreTable, right: StoreTable) -> Bool { left.name == right.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Whether `column` holds text (its order is by bytes, which PostgreSQL needs told).
    func isText(_ column: String) -> Bool {
        columns.first { $0.name == column }?.kind == .text
    }

    /// `SELECT` of every column in key order; `byteOrder` renders a text key column so that it sorts by bytes.
    func selectAll(byteOrder: (String) -> String) -> String {
        let order = key.map { isText($0) ? byteOrder($0) : $0 }.joined(separator: ", ")
        return "SELECT \(columns.map(\.name).joined(separator: ", ")) FROM \(name) ORDER BY \(order)"
    }

    /// `INSERT` of one row, every column, as `$1`, `$2`….
    var insertOne: String {
        let values = columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        return "INSERT INTO \(name) (\(columns.map(\.name).joined(separator: ", "))) VALUES (\(values))"
    }

    /// A row's values by the columns' kinds.
    func values(of row: some DatabaseRow) throws(StoreError) -> [SQLValue] {
        var values: [SQLValue] = []
        values.reserveCapacity(columns.count)
        for (index, column) in columns.enumerated() {
            switch column.kind {
            case .integer: values.append(try row.optionalInt64(index).map { .integer($0) } ?? .null)
            case .text: values.append(.text(try row.optionalText(index)))
            case .bool: values.append(.bool(try row.bool(index)))
            }
        }
        return values
    }

    /// The tables `copy` carries, each after the tables it refers to. Left out: `web_sessions` (sign-ins belong to
    /// the server they were made on), `web_keys` (the form-signing secret: the target's server makes its own),
    /// `store_generation` (the target's own, moved by the copy's commit), and the
    /// schema's own bookkeeping (`schema_version`, `id_high_water`: the copy continues the source's ids).
    public static let copied: [StoreTable] = [
        StoreTable(
            "prospects",
            [
                ("id", .integer), ("name", .text), ("email", .text), ("email_key", .text), ("contacted", .bool),
                ("created_at", .integer), ("phone", .text), ("organization", .text), ("last_seen_at", .integer),
                ("scan_count", .integer), ("first_source", .text), ("remind_at", .integer), ("name_key", .text),
                ("title", .text), ("family_name", .text), ("given_name", .text), ("additional_names", .text),
                ("honorific_prefix", .text), ("honorific_suffix", .text), ("rating", .text), ("first_event", .text),
                ("first_collected_by", .text), ("sort_key", .text), ("search_key", .text),
            ], key: ["id"], identity: "id"),
        StoreTable(
            "other_emails", [("prospect_id", .integer), ("position", .integer), ("email", .text)],
            key: ["prospect_id", "position"]),
        StoreTable(
            "other_phones", [("prospect_id", .integer), ("position", .integer), ("phone", .text)],
            key: ["prospect_id", "position"]),
        StoreTable("tags", [("prospect_id", .integer), ("tag", .text)], key: ["prospect_id", "tag"]),
        StoreTable(
            "notes",
            [
                ("id", .integer), ("prospect_id", .integer), ("written_at", .integer), ("author", .text),
                ("text", .text),
            ],
            key: ["id"], identity: "id"),
        StoreTable(
            "scans",
            [
                ("id", .integer), ("prospect_id", .integer), ("source", .text), ("seen_at", .integer),
                ("event", .text), ("collected_by", .text),
            ], key: ["id"], identity: "id"),
        StoreTable(
            "files",
            [
                ("content_hash", .text), ("file_name", .text), ("outcome", .text), ("prospects", .integer),
                ("processed_at", .integer),
            ], key: ["content_hash"]),
        StoreTable(
            "events",
            [
                ("name", .text), ("starts_on", .text), ("ends_on", .text), ("location", .text),
                ("badge_pattern", .text), ("created_at", .integer),
            ], key: ["name"]),
        StoreTable(
            "roster_entries",
            [
                ("event", .text), ("attendee_id", .text), ("name", .text), ("email", .text),
                ("organization", .text), ("title", .text), ("phone", .text), ("source", .text),
                ("imported_at", .integer),
            ], key: ["event", "attendee_id"]),
        StoreTable(
            "accounts", [("name", .text), ("role", .text), ("password_hash", .text), ("created_at", .integer)],
            key: ["name"], madeOnDemand: true),
    ]
}
