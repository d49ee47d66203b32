import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import SystemCalls

/// Imports a list (a CRM export, our own export) exactly once: a list is known by its bytes, as a picture is.
///
/// The protocol: the file's identity is taken before the reader opens it; the list is locked, so that a second
/// import of the same file waits instead of finding it missing from the ledger too; its bytes are hashed; the rows
/// stream in (`Importer`); and the list enters the store's ledger with its last rows, only when the file is still
/// the one hashed. The same list imported again counts nobody twice and only brings back the prospects deleted
/// since. With `countAgain`, or from a pipe, no hash is taken and no ledger entry is written.
public struct ListImport {
    public struct Request: Sendable, Hashable {
        /// The file to read; `-` is standard input.
        public var path: String
        public var format: ImportFormat
        /// Records that start before this 1-based line are read past: to finish an import that stopped half-way.
        public var firstLine: Int
        /// Counts the rows of a list imported before once more (no ledger look-up, no entry).
        public var countAgain: Bool
        /// SIGINT and SIGTERM stop the import between batches (`Failure.interrupted`) instead of ending the process.
        public var stopOnInterrupt: Bool
        /// The event and collector every row records.
        public var context: CollectionContext

        public init(
            path: String, format: ImportFormat, firstLine: Int = 1, countAgain: Bool = false,
            stopOnInterrupt: Bool = false, context: CollectionContext = .init()
        ) {
            self.context = context
            self.path = path
            self.format = format
            self.firstLine = firstLine
            self.countAgain = countAgain
            self.stopOnInterrupt = stopOnInterrupt
        }

        /// The file opened: `-` is `/dev/stdin`.
        var file: String { path == "-" ? "/dev/stdin" : path }
        /// The name to give the list instead of its path (a file a browser sent: the name it gave).
        public var displayName: String?

        /// The list's name in messages and in each row's source (`NAME:LINE`): `stdin` for `-`.
        public var sourceName: String { displayName ?? (path == "-" ? "stdin" : path) }
    }

    /// What happens on the way, in order.
    public enum Event: Sendable, Hashable {
        /// Another import of the same file is running; this one waits for it to end.
        case waitingForOtherImport
        /// A row that was not imported; the import goes on.
        case rejected(Importer.Rejection)
        /// A row that went in without an optional cell that could not be read.
        case ignoredCell(line: Int, what: String)
    }

    /// The rows in the store when an import stopped half-way.
    public struct Progress: Sendable, Hashable {
        public var committed: Importer.Totals
        /// The line the last committed row starts on (0: none).
        public var committedThroughLine: Int
    }

    /// Why an import did not finish.
    public enum Failure: Error, Sendable {
        /// The file cannot be opened (`.unreadable`), or is no list (empty, no header, another format).
        case cannotOpen(ImportError)
        /// The list's bytes cannot be read to hash them; nothing was imported.
        case cannotHash(SystemCallError)
        /// The store cannot be opened; nothing was imported.
        case storeUnavailable(StoreError)
        /// Reading stopped part-way (an I/O error, a record past what a reader can take); the rows before are in.
        case cannotReadOn(ImportError, Progress)
        /// The store failed part-way; the rows before are in.
        case storeFailed(StoreError, Progress)
        /// SIGINT or SIGTERM, with `stopOnInterrupt`; the rows before are in.
        case interrupted(Progress)
    }

    /// What a finished import did.
    public struct Summary: Sendable, Hashable {
        public var totals: Importer.Totals
        /// The ledger entry of the same bytes imported before, when there is one: nobody was counted again.
        public var importedBefore: LedgerEntry?
        /// When the same bytes were imported before (`importedBefore`'s time), for a front-end to show.
        public var importedBeforeAt: Date? { importedBefore?.processedAt }
        /// No row starts at or after the first line asked for (most likely a line number from another file).
        public var nothingFromFirstLine: Bool
        /// The list's columns no field was read from (`ImportRecordReader.ignoredColumns`).
        public var ignoredColumns: [String] = []

        /// `12 rows: 10 inserted, 1 duplicate, 1 rejected`: what every front-end says of an import.
        public var countsLine: String {
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            return
                "\(count(totals.rows, "row")): \(totals.inserted) inserted, \(count(totals.duplicates, "duplicate")), "
                + "\(totals.rejected) rejected"
                + (ignoredColumns.isEmpty ? "" : "; ignored columns: " + ignoredColumns.joined(separator: ", "))
        }

        /// `countsLine`, and for a list imported before, how many rows were already in and since when: the sentence
        /// every front-end says of an import. `hint` closes the parenthesis (the CLI names `--again`).
        public func sentence(hint: String? = nil) -> String {
            guard let before = importedBefore else { return countsLine }
            return countsLine + ", \(totals.alreadyIn) already in (the same list was imported on "
                + LocalTime.text(before.processedAt) + (hint.map { "; " + $0 } ?? "") + ")"
        }
    }

    let request: Request

    public init(_ request: Request) {
        self.request = request
    }

    func run(_ service: ProspectsService, report: (Event) -> Void) throws(Failure) -> Summary {
        let file = request.file
        // Looked at before the reader opens the file, so that the file hashed below is known to be the one read.
        let identity = FileIdentity(ofFileAt: file)
        let reader: any ImportRecordReader
        do {
            reader = try request.format.reader(path: file)
        } catch {
            throw .cannotOpen(error)
        }
        // The list's bytes identify it in the store's ledger, before any row is written. A list replaced since the
        // reader opened it is not remembered. Another import of the same file is waited for first: both would find
        // the list missing from the ledger and count every row twice.
        var contentHash: String?
        var listLock: ListLock?
        if !request.countAgain, let identity {
            listLock = ListLock(path: file) { report(.waitingForOtherImport) }
            do {
                contentHash = try ContentHash.sha256(ofRegularFile: file, expected: identity)
            } catch {
                throw .cannotHash(error)
            }
        }
        let ignoredColumns = reader.ignoredColumns
        let store: any ProspectStore
        do {
            store = try service.store(create: true)
        } catch {
            throw .storeUnavailable(error)
        }
        let importer = Importer(store: store, firstLine: request.firstLine, context: request.context)
        // Without it, Ctrl-C ends the import in silence, and nobody knows which rows to import again.
        if request.stopOnInterrupt { try? importer.stopOnInterrupt() }
        let totals: Importer.Totals
        do {
            // A list rewritten while it was read (same file, new bytes) is not remembered under the old ones.
            totals = try importer.run(
                source: request.sourceName, reader: reader, contentHash: contentHash,
                unchanged: { FileIdentity(ofFileAt: file) == identity }
            ) { rejection in
                report(.rejected(rejection))
            } ignore: { line, what in
                report(.ignoredCell(line: line, what: what))
            }
        } catch {
            let progress = Progress(committed: importer.committed, committedThroughLine: importer.committedThroughLine)
            switch error {
            case let error as ImportError: throw .cannotReadOn(error, progress)
            case let error as StoreError: throw .storeFailed(error, progress)
            case is Interrupted: throw .interrupted(progress)
            default: preconditionFailure("Importer.run threw \(error), which it does not")
            }
        }
        withExtendedLifetime(listLock) {}
        return Summary(
            totals: totals, importedBefore: importer.importedBefore,
            nothingFromFirstLine: request.firstLine > 1 && totals.rows == 0, ignoredColumns: ignoredColumns)
    }
}
