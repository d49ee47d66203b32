import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsService

/// `prospects list`: the app's three tabs and its sort menu.
struct ListCommand: Subcommand {
    static let name = "list"
    static let abstract = "List the prospects, filtered and sorted like the app's tabs."
    static let help = """
        USAGE: prospects list [--store <location>] [--filter everyone|contacted|uncontacted]
                              [--sort name|recent] [--reverse] [--json]

        OPTIONS:
        \(storeOptionHelp)
          --filter <tab>          everyone (default), contacted or uncontacted
          --sort <order>          name (A to Z, default) or recent (most recently added first)
          --reverse               reverse the order
          --json                  one JSON object per line: id, name, email, contacted, createdAt, …
          -h, --help              show this help
        """
    static let flags: Set<String> = ["--json", "--reverse"]
    static let options: Set<String> = ["--store", "--filter", "--sort"]
    static let optionValues = [
        "--filter": ProspectFilter.allCases.map(\.rawValue), "--sort": ProspectSort.allCases.map(\.rawValue),
    ]

    let arguments: CommandLineArguments
    let filter: ProspectFilter
    let sort: ProspectSort

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.positionals.isEmpty else { throw UsageError("list takes no arguments") }
        filter = try arguments.choice("--filter", default: .everyone)
        sort = try arguments.choice("--sort", default: .name)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = context.service(arguments)
        let out = context.console.out
        let json = arguments.has("--json")
        var table = TextTable(Self.columns, out: out)
        var count = 0
        // Streamed: from SQLite, a list of millions holds one prospect at a time (and the table's first rows). The
        // read lasts as long as the output does (`list | less`), and holds back the WAL's checkpoint meanwhile.
        try service.forEach(.init(filter: filter, sort: sort, reverse: arguments.has("--reverse"))) { stored in
            count += 1
            if json {
                out.line(JSONRecords.stored(stored).rendered)
            } else {
                table.add([
                    String(stored.id), SafeText.escaped(stored.prospect.name), SafeText.escaped(stored.prospect.email),
                    stored.isContacted ? "yes" : "no", HumanText.date(stored.createdAt), String(stored.scanCount),
                ])
            }
            return true
        }
        if json { return .success }
        table.finish()
        out.line("\(HumanText.count(count, "prospect")) (\(filter.rawValue))")
        return .success
    }

    /// Names are cut at 40 columns in the table; addresses never are, they are how prospects are named.
    static let columns: [TextTable.Column] = [
        .init("ID"), .init("NAME", limit: 40), .init("EMAIL"), .init("CONTACTED"), .init("ADDED"), .init("SCANS"),
    ]
}
