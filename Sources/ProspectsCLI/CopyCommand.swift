import ProspectsCore
import ProspectsExchange
import ProspectsService

/// `prospects copy`: a whole store into a new or empty one, verified (`StoreCopy`).
struct CopyCommand: Subcommand {
    static let name = "copy"
    static let abstract = "Copy a whole store into a new or empty one (SQLite to PostgreSQL, or a backup)."
    static let help = """
        USAGE: prospects copy --from <location> --to <location> [--json]

        OPTIONS:
          --from <location>       the store to copy: an SQLite file path or a postgres:// URL
          --to <location>         the new or empty store to copy into (a missing SQLite file is made)
          --json                  print the summary as one JSON object
          -h, --help              show this help

        Copies every prospect with its notes, tags, other addresses and scan history, the import ledger and the
        accounts, ids and all, from one snapshot of the source, in one transaction of the target. Before it
        commits, every table is read back from the target and compared with the source (row count and SHA-256
        of the rows); interrupted or failed, the target is left as it was. Web sessions are not copied.

        Exit status: 0 when copied and verified, 65 when the target is not empty or is the source, 69 when a
        store is unavailable, 70 when the copy read back differs.
        """
    static let flags: Set<String> = ["--json"]
    static let options: Set<String> = ["--from", "--to"]

    let source: StoreLocation
    let target: StoreLocation
    let json: Bool

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("copy takes no arguments; use --from and --to") }
        guard let from = arguments.value("--from"), let to = arguments.value("--to") else {
            throw UsageError("copy needs --from <location> and --to <location>")
        }
        func location(_ text: String, _ option: String) throws(UsageError) -> StoreLocation {
            do throws(StoreError) { return try StoreLocation(parsing: text) } catch {
                throw UsageError("invalid value for '\(option)': \(error.message)")
            }
        }
        source = try location(from, "--from")
        target = try location(to, "--to")
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let summary: StoreCopy.Summary
        do throws(StoreCopy.Failure) {
            let console = context.console
            summary = try StoreCopy(from: source, to: target).run(migrated: { migration in
                console.warn(SafeText.escaped(migration.message))
            })
        } catch {
            let status: ExitCode =
                switch error {
                case .sameStore, .targetNotEmpty: .dataError
                case .differs: .software
                case .source(let failure), .target(let failure): Self.status(of: failure)
                }
            throw CommandFailure(message: error.message, status: status)
        }
        let rows = Dictionary(uniqueKeysWithValues: summary.tables.map { ($0.name, $0.rows) })
        if json {
            var line = JSONLine()
            line.add("from", source.redacted)
            line.add("to", target.redacted)
            var tables = JSONLine()
            for table in summary.tables { tables.add(table.name, table.rows) }
            line.add("tables", object: tables)
            line.add("digest", summary.digest)
            context.console.out.line(line.rendered)
        } else {
            let counts = summary.tables.map { "\($0.name) \($0.rows)" }.joined(separator: ", ")
            context.console.out.line(
                "copied \(HumanText.count(rows["prospects"] ?? 0, "prospect")) from \(SafeText.escaped(source.redacted))"
                    + " to \(SafeText.escaped(target.redacted)), verified (\(counts); sha256 \(summary.digest))")
        }
        return .success
    }

    static func status(of error: StoreError) -> ExitCode {
        switch error {
        case .invalidLocation: .usage
        case .unavailable, .schemaTooNew, .unsupportedDatabase: .unavailable
        case .busy: .tryAgain
        case .permissionDenied: .noPermission
        case .storageFailed: .ioError
        case .database, .corrupt: .software
        }
    }
}
