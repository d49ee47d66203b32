import ProspectStore
import ProspectsCore
import ProspectsExchange

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
        let store = try context.openStore(arguments)
        let prospects = try store.list(filter: filter, sort: sort, reverse: arguments.has("--reverse"))
        let out = context.console.out
        if arguments.has("--json") {
            for prospect in prospects { out.line(JSONRecords.stored(prospect).rendered) }
            return .success
        }
        var table = TextTable(columns: ["ID", "NAME", "EMAIL", "CONTACTED", "ADDED", "SCANS"])
        for stored in prospects {
            table.add([
                String(stored.id), SafeText.escaped(stored.prospect.name), SafeText.escaped(stored.prospect.email),
                stored.isContacted ? "yes" : "no", HumanText.date(stored.createdAt), String(stored.scanCount),
            ])
        }
        table.render(to: out)
        out.line("\(prospects.count) \(prospects.count == 1 ? "prospect" : "prospects") (\(filter.rawValue))")
        return .success
    }
}
