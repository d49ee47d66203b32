/// What importing a list did, row by row (`Importer.Totals`).
public struct ImportTotals: Sendable, Hashable {
    public var rows = 0
    public var inserted = 0
    public var duplicates = 0
    public var rejected = 0
    /// Rows of a list imported before that found their prospect in the store, and left it as it was.
    public var alreadyIn = 0

    public init(rows: Int = 0, inserted: Int = 0, duplicates: Int = 0, rejected: Int = 0, alreadyIn: Int = 0) {
        self.rows = rows
        self.inserted = inserted
        self.duplicates = duplicates
        self.rejected = rejected
        self.alreadyIn = alreadyIn
    }
}
