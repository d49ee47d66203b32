import ProspectsCore
import ProspectsExchange
import ProspectsService
import SystemCalls

/// `prospects import`: load an existing list (a CRM export) through the same validation and dedup rules.
struct ImportCommand: Subcommand {
    static let name = "import"
    static let abstract = "Import a CSV, JSON Lines or vCard list into the store, deduplicated."
    static let help = """
        USAGE: prospects import [--store <location>] [--format csv|json|vcard] [--event <event>] [--by <name>]
                                [--from-line <n>] [--again] [--json] <file>

        ARGUMENTS:
          <file>                  CSV with a header row (name, email; optional phone, organization, contacted,
                                  createdAt, remindAt) or JSON Lines (one object per line with those keys), as
                                  'export' writes them; contacted, createdAt and remindAt apply to new prospects;
                                  or a .vcf file of any number of cards (vCard 2.1, 3.0, 4.0); - reads stdin

        OPTIONS:
        \(storeOptionHelp)
        \(collectionOptionHelp)
          --format <format>       csv, json or vcard; without it, a file that starts BEGIN:VCARD is vcard, and
                                  the name tells the others (.csv, .json, .jsonl, .vcf)
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
    static let options: Set<String> = ["--store", "--format", "--from-line", "--event", "--by"]
    static let optionValues = ["--format": ImportFormat.allCases.map(\.rawValue)]

    let arguments: CommandLineArguments
    let format: ImportFormat
    let path: String
    let firstLine: Int

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.positionals.count == 1 else { throw UsageError("import needs exactly one file") }
        path = arguments.positionals[0]
        let given: ImportFormat? = try arguments.choice("--format")
        // A vCard file says so in its first bytes; a pipe cannot be looked into first.
        guard let format = given ?? (path == "-" ? nil : ProspectsService.importFormat(ofFileAt: path)) else {
            throw UsageError("import needs --format csv|json|vcard (a vCard file is recognised by its content)")
        }
        self.format = format
        firstLine = try arguments.integer("--from-line", in: 1...Int.max) ?? 1
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let console = context.console
        let request = ListImport.Request(
            path: path, format: format, firstLine: firstLine, countAgain: arguments.has("--again"),
            stopOnInterrupt: true, context: try context.collectionContext(arguments))
        let name = SafeText.escaped(request.sourceName)
        let service = context.service(arguments)
        var status = ExitCode.success
        let summary: ListImport.Summary
        do throws(ListImport.Failure) {
            summary = try service.importList(request) { event in
                switch event {
                case .waitingForOtherImport:
                    console.warn("\(name): another import of this list is running; waiting for it to end")
                case .rejected(let rejection):
                    status = .dataError
                    console.warn("\(name):\(rejection.line): \(rejection.message)")
                case .ignoredCell(let line, let what):
                    status = .dataError
                    console.warn("\(name):\(line): \(what); the row was imported without it")
                }
            }
        } catch {
            switch error {
            case .cannotOpen(let error):
                console.warn("\(name): \(error.message)")
                // A file that opens but is no list (empty, no header, not UTF-8) is bad data, not a missing input.
                if case .unreadable = error { return .noInput }
                return .dataError
            case .cannotHash(let error):
                console.warn("\(name): \(error.reason)")
                return error.call == "open" ? .noInput : .ioError
            case .storeUnavailable(let error):
                throw error
            case .cannotReadOn(let error, let progress):
                let done = progress.committed.rows > 0 ? "; the rows before it were imported" : ""
                console.warn("\(name): \(error.message)\(done)")
                if case .unreadable = error { return .ioError }
                return .dataError
            case .storeFailed(let error, let progress):
                // Said before the store's own message, which ends the output: what to do next depends on it.
                sayWhatIsIn(progress, name: name, console)
                throw error
            case .interrupted(let progress):
                sayWhatIsIn(progress, name: name, console, interrupted: true)
                return .interrupted
            }
        }
        let totals = summary.totals
        if summary.nothingFromFirstLine {
            // Most likely a line number from another file, or one the last import already finished at.
            console.warn("\(name): no row starts at or after line \(firstLine); nothing to import")
        }
        if arguments.has("--json") {
            var json = JSONLine()
            json.add("rows", totals.rows)
            json.add("inserted", totals.inserted)
            json.add("duplicates", totals.duplicates)
            json.add("rejected", totals.rejected)
            if !summary.ignoredColumns.isEmpty {
                json.add("ignoredColumns", rawArray: summary.ignoredColumns.map(JSONLine.quote))
            }
            if let before = summary.importedBeforeAt {
                json.add("alreadyIn", totals.alreadyIn)
                json.add("importedBefore", before)
            }
            console.out.line(json.rendered)
        } else {
            console.out.line(summary.sentence(hint: "--again counts its rows once more"))
        }
        return status
    }

    /// Which rows an import that stopped half-way left in the store.
    private func sayWhatIsIn(
        _ progress: ListImport.Progress, name shown: String, _ console: Console, interrupted: Bool = false
    ) {
        let done = progress.committed
        let stopped = interrupted ? "interrupted" : "stopped"
        if done.rows == 0 {
            console.warn("\(shown): \(stopped); nothing was imported")
        } else {
            let line = progress.committedThroughLine
            console.warn(
                "\(shown): \(stopped) after line \(line): the rows up to it are in the store "
                    + "(\(done.inserted + done.duplicates + done.alreadyIn) recorded, \(done.rejected) rejected), "
                    + "the rest are not; "
                    + "import again with --from-line \(line + 1) to add them without counting the first ones twice")
        }
    }
}
