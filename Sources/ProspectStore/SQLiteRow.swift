import CSQLite
import ProspectsCore

/// The current row of a stepping `SQLiteStatement`; valid only until the next step.
struct SQLiteRow: DatabaseRow {
    let handle: OpaquePointer

    func optionalInt64(_ column: Int) throws(StoreError) -> Int64? {
        switch sqlite3_column_type(handle, Int32(column)) {
        case SQLITE_NULL: return nil
        case SQLITE_INTEGER: return sqlite3_column_int64(handle, Int32(column))
        default: throw .corrupt("column \(column) is not an integer")
        }
    }

    func optionalText(_ column: Int) throws(StoreError) -> String? {
        let index = Int32(column)
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return nil
        case SQLITE_TEXT:
            // Read by length, not up to the first NUL.
            guard let bytes = sqlite3_column_text(handle, index) else { return "" }
            let count = Int(sqlite3_column_bytes(handle, index))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        default: throw .corrupt("column \(column) is not text")
        }
    }

    func bool(_ column: Int) throws(StoreError) -> Bool {
        switch try int64(column) {
        case 0: return false
        case 1: return true
        default: throw .corrupt("column \(column) is not a boolean")
        }
    }
}
