import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import ProspectsService
import QRDecoding

/// `prospects ingest`: decode, parse and load files into the store, deduplicated.
struct IngestCommand: Subcommand {
    static let name = "ingest"
    static let abstract = "Decode pictures and add their contacts to the store, deduplicated."
    static let help = """
        USAGE: prospects ingest [--store <location>] [--event <event>] [--by <name>] [--json] [--quiet]
                                [--pixel-limit <n>] [--jobs <n>] <path> ...

        ARGUMENTS:
          <path>                  pictures (PNG, JPEG, HEIC, AVIF, WebP: told by their bytes, whatever the
                                  name), or folders searched recursively for them (a link inside is reported,
                                  not followed; hidden names skipped; files that are no picture are skipped and
                                  named); - reads one picture from stdin

        OPTIONS:
        \(storeOptionHelp)
        \(collectionOptionHelp)
          --quiet                 no progress line (it is shown only when stderr is a terminal anyway)
          --json                  one JSON line per code (with "stored": inserted|duplicate and the prospect's
                                  "id") or failed file, then a summary line {"files","inserted","duplicates",
                                  "rejected","rejectedCodes","notFound","skipped"} (rejectedCodes: codes that
                                  were no contact, in files that held one; notFound: paths that do not exist;
                                  skipped, when there are any: files in folders that are no picture)
          --pixel-limit <n>       refuse images with more pixels than this (default \(PNGReader.defaultPixelLimit))
          --jobs <n>              decode on n threads (default: one per core); one writer loads in input order
          -h, --help              show this help

        A rejected file is named on stderr with its reason and the run goes on. Content already loaded (same bytes)
        is counted as duplicates and not recorded again. A store that fails part-way is named after how many files
        are in; the same command then loads the rest.
        Exit status: 0 when every file was loaded, 65 when any was rejected, 66 when a path does not exist,
        69 when the store is unavailable.
        """
    static let flags: Set<String> = ["--json", "--quiet"]
    static let options: Set<String> = ["--store", "--pixel-limit", "--jobs", "--event", "--by"]

    let arguments: CommandLineArguments
    let json: Bool
    let pixelLimit: Int
    /// Decoding threads; nil means one per core.
    let workers: Int?

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        json = arguments.has("--json")
        guard !arguments.positionals.isEmpty else { throw UsageError("ingest needs at least one file or folder") }
        pixelLimit = try arguments.pixelLimit()
        workers = try arguments.jobs()
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let console = context.console
        let ingester = try context.service(arguments).ingester(
            workers: workers, options: .init(pixelLimit: pixelLimit), stopOnInterrupt: true,
            context: try context.collectionContext(arguments))
        var status = ExitCode.success
        if console.err.isTerminal && !json && !arguments.has("--quiet") {
            console.progress = ProgressLine(stream: console.err)
        }
        var planned = 0
        var missing = 0
        var reported = 0
        var skipped = SkippedFiles()
        var interrupted = false
        let totals: LoadTotals
        do {
            totals = try ingest(
                with: ingester, console: console, status: &status, planned: &planned, missing: &missing,
                reported: &reported, skipped: &skipped)
        } catch is Interrupted {
            totals = ingester.committed
            interrupted = true
        } catch let error as StoreError {
            // Said before the store's own message, which ends the output: the person needs to know that running
            // the same command again is safe.
            console.progress?.clear()
            console.warn(
                reported == 0
                    ? "stopped before any file was stored"
                    : "stopped after \(reported) of \(HumanText.count(planned, "file")): the files reported are in the "
                        + "store, the rest are not; once the store works again, the same command loads them (the "
                        + "files already loaded count as duplicates)")
            throw error
        }
        console.progress?.clear()
        if let line = skipped.summary { console.warn(line) }
        if json {
            var summary = JSONLine()
            summary.add("files", totals.files)
            summary.add("inserted", totals.inserted)
            summary.add("duplicates", totals.duplicates)
            summary.add("rejected", totals.rejected)
            summary.add("rejectedCodes", totals.rejectedCodes)
            summary.add("notFound", missing)
            if skipped.count > 0 { summary.add("skipped", skipped.count) }
            if interrupted { summary.add("interrupted", true) }
            console.out.line(summary.rendered)
        } else {
            var line = "\(HumanText.count(totals.files, "file")): \(totals.inserted) inserted, "
            line += "\(HumanText.count(totals.duplicates, "duplicate")), \(totals.rejected) rejected"
            if totals.rejectedCodes > 0 {
                line +=
                    totals.rejectedCodes == 1
                    ? " (and 1 code that was not a contact)"
                    : " (and \(totals.rejectedCodes) codes that were not contacts)"
            }
            if missing > 0 { line += "; \(HumanText.count(missing, "path")) not found" }
            console.out.line(line)
        }
        if interrupted {
            console.warn(
                "interrupted after \(totals.files) of \(HumanText.count(planned, "file")): the files reported are in the "
                    + "store, the rest are not; the same command again loads them (the files already loaded count as "
                    + "duplicates)")
            return .interrupted
        }
        return status
    }

    private func ingest(
        with ingester: Ingester, console: Console, status: inout ExitCode, planned: inout Int, missing: inout Int,
        reported: inout Int, skipped: inout SkippedFiles
    ) throws -> LoadTotals {
        try ingester.ingest(arguments.positionals) { event in
            switch event {
            case .missing(let path, let error):
                status = .noInput
                missing += 1
                console.warn("\(SafeText.escaped(path)): \(error.message)")
                let shown = StoreLocation.hidingPasswords(in: path)
                if json { console.out.line(JSONRecords.fileError(path: shown, error).rendered) }
            case .planned(let files):
                planned = files
            case .noImages(let folder):
                console.warn(DecodeCommand.noImages(in: folder))
            case .skipped(let path, let kind):
                skipped.add(path: path, kind: kind)
            case .file(let result):
                reported += 1
                let rejected = result.outcome == .rejected || !result.file.rejectedCodes.isEmpty
                status = status.after(file: result.file.fileError, rejected: rejected)
                report(result, console)
            case .decoded(let count):
                console.progress?.update("\(count)/\(planned) files decoded")
            }
        }
    }

    private func report(_ result: FileResult, _ console: Console) {
        let file = result.file
        let name = SafeText.escaped(file.path)
        HumanText.warn(file.warnings, file: file.path, console)
        if let error = file.fileError {
            console.warn("\(name): rejected: \(HumanText.problem(error))")
            if json { console.out.line(JSONRecords.fileError(path: file.path, error).rendered) }
            return
        }
        for (index, (code, status)) in zip(file.codes, result.codes).enumerated() {
            if case .rejected(let error) = status {
                let which = HumanText.whichCode(index, of: file.codes.count)
                console.warn("\(name)\(which): rejected: \(error.message)")
            }
            if json { console.out.line(JSONRecords.code(code, file: file.path, status: status).rendered) }
        }
    }
}
