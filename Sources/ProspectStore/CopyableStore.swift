import ProspectsCore

/// A store whose tables can be read and written whole, for `prospects copy`: every row of `StoreTable.copied`, ids
/// and all, from one store into another (SQLite to PostgreSQL, or a backup), in one transaction of the target.
public protocol CopyableStore: ProspectStore {
    /// Runs `body` with every read in it seeing one snapshot of the store, whatever others write meanwhile.
    func inReadSnapshot<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T
    /// Runs `body` in one write transaction, committed when it returns and rolled back when it throws.
    func inCopyTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T
    /// Whether the store has `table` (one made on first use may be missing).
    func hasTable(_ table: StoreTable) throws(StoreError) -> Bool
    /// Makes a table made on first use (`StoreTable.madeOnDemand`), unless it is there.
    func makeTable(_ table: StoreTable) throws(StoreError)
    /// Every row of `table`, in its key order, as values in its column order; nothing for a missing table.
    func eachRow(of table: StoreTable, _ body: ([SQLValue]) throws(StoreError) -> Void) throws(StoreError)
    /// How many rows `table` has; 0 for a missing table.
    func rowCount(of table: StoreTable) throws(StoreError) -> Int
    /// Writes one row, its values in the table's column order.
    func insertRow(_ values: [SQLValue], into table: StoreTable) throws(StoreError)
    /// The highest prospect id ever handed out, deleted ones included.
    func idHighWater() throws(StoreError) -> Int64
    /// After a copy: new ids continue above `prospects` (and above every copied id of the other tables).
    func continueIDs(above prospects: Int64) throws(StoreError)
}
