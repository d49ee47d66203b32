import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import SystemCalls

/// `prospects import`: load an existing list (a CRM export) through the same validation and dedup rules.
struct ImportCommand: Subcommand {
    static let name = "import"
    static let abstract = "Import a CSV or JSON Lines list into the store, deduplicated."
    static let help = """
        USAGE: prospects import [--store <location>] --format csv|json [--from-line <n>] [--again] [--json] <file>

        ARGUMENTS:
          <file>                  CSV with a header row (name, email; optional phone, organization, contacted,
                                  createdAt, remindAt) or JSON Lines (one object per line with those keys), as
                                  'export' writes them; contacted, createdAt and remindAt apply to new prospects;
                                  - reads stdin

        OPTIONS:
        \(storeOptionHelp)
          --format <format>       csv or json
          --from-line <n>         skip the records that start before line n: to finish an import that stopped
                                  half-way (its message says where) without counting its first rows twice
          --again                 count the rows of a list imported before once more (see below)
          --json                  print the summary as one JSON object
          -h, --help              show this help

        Rows are read as a stream, so a file of any length needs little memory. An invalid or malformed row is
        reported on stderr as FILE:LINE and the import goes on with the next one. A contacted, createdAt or remindAt
        cell that cannot be read (dates: ISO 8601, 2026-12-01 14:30 local, or a day alone) is reported the same way
        and left out; the row is imported. CSV may separate with ; or TAB when its header has no comma. A line
        break or tab inside a name, phone or organization becomes a space.
        A list is known by its bytes, as a picture is: the same file imported again counts nobody twice, and only
        brings back the prospects deleted since. A list enters the store's ledger once its last row is in (and not
        with --again, or read from a pipe). An import of a file that another import is reading waits for it to end.
        Exit status: 0 when every row was imported or was a duplicate, 65 when a row or cell was rejected or the file
        is no list (an empty CSV, one with no header, a JSON array), 66 when the file cannot be opened, 74 when
        reading it fails (midway: the rows before are imported), 69 when the store is unavailable.
        """
    static let flags: Set<String> = ["--json", "--again"]
    static let options: Set<String> = ["--store", "--format", "--from-line"]

    let arguments: CommandLineArguments
    let format: ImportFormat
    let path: String
    let firstLine: Int

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.value("--format") != nil else { throw UsageError("import needs --format csv|json") }
        format = try arguments.choice("--format", default: .csv)
        guard arguments.positionals.count == 1 else { throw UsageError("import needs exactly one file") }
        path = arguments.positionals[0]
        firstLine = try arguments.integer("--from-line", in: 1...Int.max) ?? 1
    }

    /// The file to open: `-` is stdin, as `export -o -` is stdout.
    private var file: String { path == "-" ? "/dev/stdin" : path }
    /// The file in messages and in each row's source (`FILE:LINE`).
    private var name: String { path == "-" ? "stdin" : path }

    func run(_ context: CommandContext) throws -> ExitCode {
        let console = context.console
        // Looked at before the reader opens the file, so that the file hashed below is known to be the one read.
        let identity = FileIdentity(ofFileAt: file)
        let reader: any ImportRecordReader
        do {
            switch format {
            case .csv: reader = try CSVRecordReader(path: file)
            case .json: reader = try JSONLinesRecordReader(path: file)
            }
        } catch {
            console.warn("\(SafeText.escaped(name)): \(error.message)")
            // A file that opens but is no list (empty, no header, not UTF-8) is bad data, not a missing input.
            if case .unreadable = error { return .noInput }
            return .dataError
        }
        // The list's bytes identify it in the store's ledger, before any row is written. A list replaced since the
        // reader opened it is not remembered. Another import of the same file is waited for first: both would find
        // the list missing from the ledger and count every row twice.
        var contentHash: String?
        var listLock: ListLock?
        if !arguments.has("--again"), let identity {
            listLock = ListLock(path: file) {
                console.warn("\(SafeText.escaped(name)): another import of this list is running; waiting for it to end")
            }
            do {
                contentHash = try ContentHash.sha256(ofRegularFile: file, expected: identity)
            } catch {
                console.warn("\(SafeText.escaped(name)): \(error.reason)")
                return error.call == "open" ? .noInput : .ioError
            }
        }
        let store = try context.openStore(arguments, create: true)
        var status = ExitCode.success
        let totals: Importer.Totals
        let importer = Importer(store: store, firstLine: firstLine)
        // Without it, Ctrl-C ends the import in silence, and nobody knows which rows to import again.
        try? importer.stopOnInterrupt()
        do {
            // A list rewritten while it was read (same file, new bytes) is not remembered under the old ones.
            totals = try importer.run(
                source: name, reader: reader, contentHash: contentHash,
                unchanged: { FileIdentity(ofFileAt: file) == identity }
            ) { rejection in
                status = .dataError
                console.warn("\(SafeText.escaped(name)):\(rejection.line): \(rejection.message)")
            } ignore: { line, what in
                status = .dataError
                console.warn("\(SafeText.escaped(name)):\(line): \(what); the row was imported without it")
            }
        } catch let error as ImportError {
            let done = importer.committed.rows > 0 ? "; the rows before it were imported" : ""
            console.warn("\(SafeText.escaped(name)): \(error.message)\(done)")
            if case .unreadable = error { return .ioError }
            return .dataError
        } catch let error as StoreError {
            // Said before the store's own message, which ends the output: what to do next depends on it.
            sayWhatIsIn(importer, console)
            throw error
        } catch is Importer.Interrupted {
            sayWhatIsIn(importer, console, interrupted: true)
            return .interrupted
        }
        withExtendedLifetime(listLock) {}
        if firstLine > 1 && totals.rows == 0 {
            // Most likely a line number from another file, or one the last import already finished at.
            console.warn("\(SafeText.escaped(name)): no row starts at or after line \(firstLine); nothing to import")
        }
        if arguments.has("--json") {
            var json = JSONLine()
            json.add("rows", totals.rows)
            json.add("inserted", totals.inserted)
            json.add("duplicates", totals.duplicates)
            json.add("rejected", totals.rejected)
            if let before = importer.importedBefore {
                json.add("alreadyIn", totals.alreadyIn)
                json.add("importedBefore", before.processedAt)
            }
            console.out.line(json.rendered)
        } else {
            var summary =
                "\(HumanText.count(totals.rows, "row")): \(totals.inserted) inserted, "
                + "\(HumanText.count(totals.duplicates, "duplicate")), \(totals.rejected) rejected"
            if let before = importer.importedBefore {
                summary +=
                    ", \(totals.alreadyIn) already in (the same list was imported on "
                    + "\(HumanText.date(before.processedAt)); --again counts its rows once more)"
            }
            console.out.line(summary)
        }
        return status
    }

    /// Which rows an import that stopped half-way left in the store.
    private func sayWhatIsIn(_ importer: Importer, _ console: Console, interrupted: Bool = false) {
        let shown = SafeText.escaped(name)
        let done = importer.committed
        let stopped = interrupted ? "interrupted" : "stopped"
        if done.rows == 0 {
            console.warn("\(shown): \(stopped); nothing was imported")
        } else {
            console.warn(
                "\(shown): \(stopped) after line \(importer.committedThroughLine): the rows up to it are in the store "
                    + "(\(done.inserted + done.duplicates + done.alreadyIn) recorded, \(done.rejected) rejected), "
                    + "the rest are not; "
                    + "import again with --from-line \(importer.committedThroughLine + 1) to add them without counting "
                    + "the first ones twice")
        }
    }
}
