import ProspectsCore

/// One row of a PostgreSQL result, copied out of libpq's `PGresult` as text (the text protocol).
struct PostgresRow: DatabaseRow {
    let values: [String?]

    func optionalInt64(_ column: Int) throws(StoreError) -> Int64? {
        guard let text = values[column] else { return nil }
        guard let value = Int64(text) else { throw .corrupt("column \(column) is not an integer") }
        return value
    }

    func optionalText(_ column: Int) throws(StoreError) -> String? {
        values[column]
    }

    func bool(_ column: Int) throws(StoreError) -> Bool {
        switch values[column] {
        case "t": return true
        case "f": return false
        default: throw .corrupt("column \(column) is not a boolean")
        }
    }
}
