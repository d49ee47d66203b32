import Crypto
import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest

/// A whole store copied into a new or empty one (`prospects copy`): every table of `StoreTable.copied`, ids and all,
/// read from one snapshot of the source and written in one transaction of the target, which commits only once
/// every table reads back from the target with the source's row count and content digest. Interrupted or failed,
/// the target is left as it was. The way to move from SQLite to PostgreSQL (or back), and to make a backup.
public struct StoreCopy {
    /// One table as copied.
    public struct Table: Sendable, Hashable {
        public var name: String
        public var rows: Int
        /// SHA-256 of the table's rows in key order, the same read from the source and from the target.
        public var digest: String
    }

    public struct Summary: Sendable, Hashable {
        public var tables: [Table]
        /// SHA-256 of every table's name and digest: the store's content in one value.
        public var digest: String
    }

    public enum Failure: Error, Sendable {
        /// The source and the target are one store.
        case sameStore(String)
        /// The target holds rows already; a copy writes only into a new or empty store (`import` merges).
        case targetNotEmpty(table: String, rows: Int)
        /// The source cannot be opened or read; nothing was written.
        case source(StoreError)
        /// The target cannot be opened or written; it is left as it was.
        case target(StoreError)
        /// A table read back from the target differs from the source's; the target is left as it was.
        case differs(table: String, source: Int, target: Int)

        public var message: String {
            switch self {
            case .sameStore(let store): "the source and the target are the same store (\(store))"
            case .targetNotEmpty(let table, let rows):
                "the target is not empty (\(rows) rows in \(table)): copy writes only into a new or empty store; "
                    + "import merges a list into one that has prospects"
            case .source(let error): "the source store: \(error.message)"
            case .target(let error): "the target store: \(error.message)"
            case .differs(let table, let source, let target):
                "the copy of \(table) read back differs from the source (\(source) rows, \(target) in the copy); "
                    + "the target is left as it was"
            }
        }
    }

    public let source: StoreLocation
    public let target: StoreLocation
    public let lockWait: Duration

    public init(
        from source: StoreLocation, to target: StoreLocation, lockWait: Duration = StoreLocation.defaultLockWait
    ) {
        self.source = source
        self.target = target
        self.lockWait = lockWait
    }

    /// Copies; `progress` hears of each table once it is written (name, rows), and `migrated` of a store that
    /// opening migrated from an older schema.
    public func run(
        progress: (_ table: String, _ rows: Int) -> Void = { _, _ in },
        migrated: (SchemaMigration) -> Void = { _ in }
    ) throws(Failure) -> Summary {
        if Self.sameStore(source, target) { throw .sameStore(source.redacted) }
        let from: any CopyableStore
        let into: any CopyableStore
        do throws(StoreError) {
            guard let opened = try source.open(create: false, lockWait: lockWait) as? any CopyableStore else {
                throw .unavailable("this store cannot be copied")
            }
            from = opened
        } catch { throw .source(error) }
        if let migration = from.migration { migrated(migration) }
        do throws(StoreError) {
            guard let opened = try target.open(create: true, lockWait: lockWait) as? any CopyableStore else {
                throw .unavailable("this store cannot be copied into")
            }
            into = opened
        } catch { throw .target(error) }
        if let migration = into.migration { migrated(migration) }

        var refusal: Failure?
        var sourceFailure: StoreError?
        var tables: [Table] = []
        do throws(StoreError) {
            try from.inReadSnapshot { () throws(StoreError) in
                let highWater: Int64
                do throws(StoreError) { highWater = try from.idHighWater() } catch {
                    sourceFailure = error
                    throw error
                }
                try into.inCopyTransaction { () throws(StoreError) in
                    tables = []
                    for table in StoreTable.copied {
                        let rows = try into.rowCount(of: table)
                        if rows > 0 {
                            refusal = .targetNotEmpty(table: table.name, rows: rows)
                            throw .corrupt(table.name)
                        }
                    }
                    for table in StoreTable.copied {
                        let copied = try copy(table, from: from, into: into, sourceFailure: &sourceFailure)
                        // Read back inside the transaction: a copy that differs is never committed.
                        let check = RunningSHA256()
                        var readBack = 0
                        try into.eachRow(of: table) { values in
                            Self.feed(values, into: check)
                            readBack += 1
                        }
                        let digest = check.finish()
                        guard readBack == copied.rows, digest == copied.digest else {
                            refusal = .differs(table: table.name, source: copied.rows, target: readBack)
                            throw .corrupt(table.name)
                        }
                        tables.append(copied)
                        progress(table.name, copied.rows)
                    }
                    try into.continueIDs(above: highWater)
                }
            }
        } catch {
            if let refusal { throw refusal }
            if let sourceFailure { throw .source(sourceFailure) }
            throw .target(error)
        }
        let whole = RunningSHA256()
        for table in tables { whole.update(Array("\(table.name) \(table.digest)\n".utf8)) }
        return Summary(tables: tables, digest: whole.finish())
    }

    /// One table's rows, from the source into the target, and the digest of what was read.
    private func copy(
        _ table: StoreTable, from: any CopyableStore, into: any CopyableStore, sourceFailure: inout StoreError?
    ) throws(StoreError) -> Table {
        let digest = RunningSHA256()
        var rows = 0
        do throws(StoreError) {
            if table.madeOnDemand, try !from.hasTable(table) {
                return Table(name: table.name, rows: 0, digest: digest.finish())
            }
        } catch {
            sourceFailure = error
            throw error
        }
        if table.madeOnDemand { try into.makeTable(table) }
        var writeFailure: StoreError?
        do throws(StoreError) {
            try from.eachRow(of: table) { values throws(StoreError) in
                do throws(StoreError) { try into.insertRow(values, into: table) } catch {
                    writeFailure = error
                    throw error
                }
                Self.feed(values, into: digest)
                rows += 1
            }
        } catch {
            if let writeFailure { throw writeFailure }
            sourceFailure = error
            throw error
        }
        return Table(name: table.name, rows: rows, digest: digest.finish())
    }

    /// A row's values in a form with one reading: a type byte, then the value (text with its length).
    private static func feed(_ values: [SQLValue], into digest: RunningSHA256) {
        var bytes: [UInt8] = []
        for value in values {
            switch value {
            case .null: bytes.append(0)
            case .integer(let number):
                bytes.append(1)
                withUnsafeBytes(of: number.bigEndian) { bytes.append(contentsOf: $0) }
            case .text(let text):
                bytes.append(2)
                withUnsafeBytes(of: UInt32(text.utf8.count).bigEndian) { bytes.append(contentsOf: $0) }
                bytes.append(contentsOf: text.utf8)
            case .bool(let flag): bytes.append(contentsOf: [3, flag ? 1 : 0])
            }
        }
        digest.update(bytes)
    }

    /// The same SQLite file (by its real path), or the same PostgreSQL URL.
    static func sameStore(_ left: StoreLocation, _ right: StoreLocation) -> Bool {
        switch (left, right) {
        case (.sqlite(let a), .sqlite(let b)):
            let real = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
            }
            return real(a) == real(b)
        case (.postgres(let a), .postgres(let b)): return a == b
        default: return false
        }
    }
}
