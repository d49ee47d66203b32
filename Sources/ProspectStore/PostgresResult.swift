import CPostgres

/// The rows of a PostgreSQL result, copied into Swift values so the `PGresult` can be cleared at once.
struct PostgresResult {
    var rows: [PostgresRow]
    /// Rows an INSERT, UPDATE or DELETE affected (`PQcmdTuples`), 0 for other statements.
    var affectedRows: Int

    init(copying result: OpaquePointer?) {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        rows = (0..<rowCount).map { row in
            PostgresRow(
                values: (0..<columnCount).map { column in
                    if PQgetisnull(result, row, column) == 1 { return nil }
                    // By length: text values cannot hold NUL, but this never depends on it.
                    let length = Int(PQgetlength(result, row, column))
                    return PQgetvalue(result, row, column).withMemoryRebound(to: UInt8.self, capacity: length) {
                        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                    }
                })
        }
        affectedRows = PQcmdTuples(result).flatMap { Int(String(cString: $0)) } ?? 0
    }
}
