import CSQLite
import ProspectsCore

/// One compiled SQLite statement. Parameters may be written `?` (bound in order), `$1`, `$2`… (bound by number),
/// or `:name` (bound to the value of that `SQLParameter`, see `SQLArguments`); each is resolved to its value's
/// position once, when the statement is compiled.
///
/// A class rather than a struct because the statement must be finalized exactly once, in `deinit`.
final class SQLiteStatement {
    let sql: String
    private let handle: OpaquePointer
    /// For each SQLite parameter index (1-based, at offset index-1), the offset in the value list it takes.
    private let valueOffsets: [Int]
    /// The bytes of the text values bound for the current run, which SQLite reads in place (SQLITE_STATIC) until
    /// they are bound again. SQLite's own copy of each text costs an allocation and a free per value, a cost the
    /// import's statements feel (docs/performance.md).
    private var boundText: UnsafeMutableRawBufferPointer

    /// Compiles `sql` on `connection`; `placeholders` are the `:name`s its values are listed by (see
    /// `SQLParameter.placeholders`). The corresponding C function is `sqlite3_prepare_v2`.
    init(sql: String, connection: OpaquePointer, placeholders: [String] = []) throws(StoreError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteDatabase.error(code: code, connection: connection, sql: sql)
        }
        self.sql = sql
        self.handle = statement
        let count = Int(sqlite3_bind_parameter_count(statement))
        var valueOffsets: [Int] = []
        for offset in 0..<count {
            // `$3` takes the third value wherever it appears, `:name` the value listed at that name's place; an
            // anonymous `?` takes the value in its own position.
            let name = sqlite3_bind_parameter_name(statement, Int32(offset + 1)).map { String(cString: $0) }
            if let name, name.hasPrefix("$"), let number = Int(name.dropFirst()) {
                valueOffsets.append(number - 1)
            } else if let name, name.hasPrefix(":") {
                guard let position = placeholders.firstIndex(of: name) else {
                    sqlite3_finalize(statement)
                    throw .database(code: SQLITE_RANGE, message: "no value is named \(name)", sql: sql)
                }
                valueOffsets.append(position)
            } else {
                valueOffsets.append(offset)
            }
        }
        self.valueOffsets = valueOffsets
        // Allocated last: a failed init runs no deinit to free it.
        self.boundText = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
    }

    deinit {
        sqlite3_finalize(handle)
        boundText.deallocate()
    }

    /// Runs the statement to completion, ignoring any rows.
    func execute(_ values: [SQLValue] = []) throws(StoreError) {
        try run(values) { _ throws(StoreError) in true }
    }

    /// Runs the statement with the values of `row` of `arguments`, `parameter` taking `value` instead (the id the
    /// store gives), ignoring any rows. The text is read in place: `arguments` must outlive the next binding.
    func execute<Parameter>(
        _ arguments: PackedArguments<Parameter>, row: Int, setting parameter: Parameter? = nil, to value: Int64 = 0
    ) throws(StoreError) {
        try run { () throws(StoreError) in
            try bind(arguments, row: row, setting: parameter, to: value)
        } row: { _ throws(StoreError) in
            true
        }
    }

    /// The first column of the first row, as an integer, the statement run with the values of `row` of
    /// `arguments`; nil when there is no row.
    func firstInteger<Parameter>(_ arguments: PackedArguments<Parameter>, row: Int) throws(StoreError) -> Int64? {
        var first: Int64?
        try run { () throws(StoreError) in
            try bind(arguments, row: row, setting: nil, to: 0)
        } row: { row throws(StoreError) in
            first = try row.int64(0)
            return false
        }
        return first
    }

    /// Runs the statement and maps every row. The row is only valid inside `map`.
    func query<T>(_ values: [SQLValue] = [], map: (SQLiteRow) throws(StoreError) -> T) throws(StoreError) -> [T] {
        var results: [T] = []
        try run(values) { row throws(StoreError) in
            results.append(try map(row))
            return true
        }
        return results
    }

    /// Runs the statement and hands each row to `body` as it comes, until `body` returns false. The row is only
    /// valid inside `body`.
    func each(_ values: [SQLValue] = [], _ body: (SQLiteRow) throws(StoreError) -> Bool) throws(StoreError) {
        try run(values, row: body)
    }

    /// The number of rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int {
        Int(sqlite3_changes(sqlite3_db_handle(handle)))
    }

    /// The rowid of the connection's last successful INSERT into any table; an upsert that updated instead leaves
    /// it as it was, so set it to a rowid no insert can have first.
    var lastInsertedRowID: Int64 {
        get { sqlite3_last_insert_rowid(sqlite3_db_handle(handle)) }
        set { sqlite3_set_last_insert_rowid(sqlite3_db_handle(handle), newValue) }
    }

    /// Binds, steps until done (or `row` returns false), then resets so the statement can be reused from the cache.
    private func run(_ values: [SQLValue], row: (SQLiteRow) throws(StoreError) -> Bool) throws(StoreError) {
        try run({ () throws(StoreError) in try bind(values) }, row: row)
    }

    /// `run` with the values `bind` binds.
    private func run(_ bind: () throws(StoreError) -> Void, row: (SQLiteRow) throws(StoreError) -> Bool)
        throws(StoreError)
    {
        // Every parameter is bound on every run, so old bindings need no clearing.
        defer { sqlite3_reset(handle) }
        try bind()
        while true {
            let code = sqlite3_step(handle)
            switch code {
            case SQLITE_ROW: guard try row(SQLiteRow(handle: handle)) else { return }
            case SQLITE_DONE: return
            default: throw SQLiteDatabase.error(code: code, connection: sqlite3_db_handle(handle), sql: sql)
            }
        }
    }

    /// Throws unless a run of `count` values can be bound: one for every parameter, and no run of this statement
    /// still stepping, which reads its text where it was bound (binding again would change it under that run).
    private func checkBindable(count: Int) throws(StoreError) {
        guard valueOffsets.allSatisfy({ $0 >= 0 && $0 < count }) else {
            throw .database(
                code: SQLITE_RANGE, message: "\(count) values for \(valueOffsets.count) parameters", sql: sql)
        }
        guard sqlite3_stmt_busy(handle) == 0 else {
            throw .database(code: SQLITE_MISUSE, message: "the statement is already running", sql: sql)
        }
    }

    private func bind(_ values: [SQLValue]) throws(StoreError) {
        try checkBindable(count: values.count)
        reserveBoundText(for: values)
        var textEnd = 0
        for (offset, valueOffset) in valueOffsets.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch values[valueOffset] {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let value): code = sqlite3_bind_int64(handle, index, value)
            case .bool(let value): code = sqlite3_bind_int64(handle, index, value ? 1 : 0)
            case .text(let value):
                var text = value
                // The explicit byte count keeps any NUL inside the text. The buffer is never empty, so even an empty
                // string binds a pointer: a NULL one would bind SQL NULL.
                let start = boundText.baseAddress! + textEnd
                let count = text.withUTF8 { bytes in
                    if let base = bytes.baseAddress { start.copyMemory(from: base, byteCount: bytes.count) }
                    return bytes.count
                }
                textEnd += count
                // A nil destructor is SQLITE_STATIC.
                code = sqlite3_bind_text64(
                    handle, index, start.assumingMemoryBound(to: CChar.self), sqlite3_uint64(count), nil,
                    UInt8(SQLITE_UTF8))
            }
            guard code == SQLITE_OK else {
                throw SQLiteDatabase.error(code: code, connection: sqlite3_db_handle(handle), sql: sql)
            }
        }
    }

    /// Binds `row` of `arguments` in place (SQLITE_STATIC: SQLite reads the text where it is), `parameter` taking
    /// `value` instead.
    private func bind<Parameter>(
        _ arguments: PackedArguments<Parameter>, row: Int, setting parameter: Parameter?, to value: Int64
    ) throws(StoreError) {
        try checkBindable(count: arguments.width)
        let text = arguments.text
        let replaced = parameter?.rawValue ?? -1
        for (offset, valueOffset) in valueOffsets.enumerated() {
            let index = Int32(offset + 1)
            let slot = arguments.slot(row, valueOffset)
            let code: Int32
            if valueOffset == replaced {
                code = sqlite3_bind_int64(handle, index, value)
            } else if slot.isNull {
                code = sqlite3_bind_null(handle, index)
            } else if slot.isInteger {
                code = sqlite3_bind_int64(handle, index, slot.payload)
            } else {
                // A nil destructor is SQLITE_STATIC. The buffer is never empty, so even an empty text binds a
                // pointer: a NULL one would bind SQL NULL.
                code = sqlite3_bind_text64(
                    handle, index, (text + Int(slot.payload)).assumingMemoryBound(to: CChar.self),
                    sqlite3_uint64(slot.count), nil, UInt8(SQLITE_UTF8))
            }
            guard code == SQLITE_OK else {
                throw SQLiteDatabase.error(code: code, connection: sqlite3_db_handle(handle), sql: sql)
            }
        }
    }

    /// Makes `boundText` large enough for every text parameter of `values`. Replacing it leaves the previous run's
    /// bindings pointing at freed memory, which is safe: each is bound again before the statement steps, and no run
    /// is stepping (`bind` checks).
    private func reserveBoundText(for values: [SQLValue]) {
        var needed = 0
        for valueOffset in valueOffsets {
            if case .text(let text) = values[valueOffset] { needed += text.utf8.count }
        }
        guard needed > boundText.count else { return }
        boundText.deallocate()
        boundText = UnsafeMutableRawBufferPointer.allocate(byteCount: max(needed, 2 * boundText.count), alignment: 1)
    }
}
