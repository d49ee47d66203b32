import Foundation
import ProspectsCore
import ProspectsExchange
import ProspectsService

/// `prospects list`: the app's three tabs and its sort menu, with a search and the team's filters.
struct ListCommand: Subcommand {
    static let name = "list"
    static let abstract = "List the prospects, filtered, searched and sorted like the app's tabs."
    static let help = """
        USAGE: prospects list [--store <location>] [--filter everyone|contacted|uncontacted] [--search <text>]
                              [--rating hot|warm|cold|none] [--tag <tag>] [--event <event>] [--by <name>]
                              [--sort name|recent] [--reverse] [--limit <n>] [--offset <n>]
                              [--columns <list>] [--json]

        OPTIONS:
        \(storeOptionHelp)
          --filter <tab>          everyone (default), contacted or uncontacted
          --search <text>         every word found in the name, email, organization, title, notes or tags, case-
                                  and accent-insensitively (muller finds Müller)
          --rating <rating>       hot, warm, cold or none (not rated)
          --tag <tag>             prospects with this tag
          --event <event>         prospects collected at this event (on any scan)
          --by <name>             prospects collected by this person (on any scan)
          --sort <order>          name (A to Z, numbers in names in order: Person 2 before Person 10; default) or
                                  recent (most recently added first)
          --reverse               reverse the order
          --limit <n>             at most n prospects
          --offset <n>            skip the first n prospects of the order
          --columns <list>        the table's columns, comma-separated, from: \(Self.columnNames.joined(separator: ","))
                                  (default: \(Self.defaultColumns.joined(separator: ",")))
          --json                  one JSON object per line: id, name, email, contacted, createdAt, title, rating,
                                  tags, …
          -h, --help              show this help

        On a terminal the table fits its width, long cells cut with …; piped, lines are whole.
        """
    static let flags: Set<String> = ["--json", "--reverse"]
    static let options: Set<String> = [
        "--store", "--filter", "--sort", "--search", "--rating", "--tag", "--event", "--by", "--limit", "--offset",
        "--columns",
    ]
    static let optionValues = [
        "--filter": ProspectFilter.allCases.map(\.rawValue), "--sort": ProspectSort.allCases.map(\.rawValue),
        "--rating": ProspectRating.allCases.map(\.rawValue),
    ]

    let arguments: CommandLineArguments
    let query: ProspectQuery
    let columns: [String]

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.positionals.isEmpty else { throw UsageError("list takes no arguments") }
        query = try Self.query(arguments)
        let columns = (arguments.value("--columns") ?? Self.defaultColumns.joined(separator: ","))
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for column in columns where !Self.columnNames.contains(column) {
            throw UsageError(
                "unknown column '\(SafeText.escaped(column, limit: 80))'; the columns are: "
                    + Self.columnNames.joined(separator: ", "))
        }
        guard !columns.isEmpty else { throw UsageError("--columns needs at least one column") }
        self.columns = columns
    }

    /// The query `list` and `export` read from their options.
    static func query(_ arguments: CommandLineArguments) throws(UsageError) -> ProspectQuery {
        func text(_ option: String) -> String? {
            arguments.value(option).flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        }
        return ProspectQuery(
            filter: try arguments.choice("--filter", default: .everyone), search: text("--search"),
            rating: try arguments.choice("--rating"), tag: text("--tag"), event: text("--event"),
            collectedBy: text("--by"), sort: try arguments.choice("--sort", default: .name),
            reverse: arguments.has("--reverse"), limit: try arguments.integer("--limit", in: 0...Int.max),
            offset: try arguments.integer("--offset", in: 0...Int.max) ?? 0)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = context.service(arguments)
        let out = context.console.out
        let json = arguments.has("--json")
        var table = TextTable(
            columns.map { Self.column($0) }, out: out, fit: json ? nil : out.terminalColumns)
        var count = 0
        // Streamed: from SQLite, a list of millions holds one prospect at a time (and the table's first rows). The
        // read lasts as long as the output does (`list | less`), and holds back the WAL's checkpoint meanwhile.
        try service.forEach(query) { stored in
            count += 1
            if json {
                out.line(JSONRecords.stored(stored).rendered)
            } else {
                table.add(columns.map { Self.cell($0, stored) })
            }
            return true
        }
        if json { return .success }
        table.finish()
        out.line("\(HumanText.count(count, "prospect")) (\(query.filter.rawValue))")
        return .success
    }

    static let columnNames = [
        "id", "name", "email", "phone", "organization", "title", "rating", "tags", "contacted", "added", "scans",
        "event", "by", "reminder",
    ]
    static let defaultColumns = ["id", "name", "email", "contacted", "added", "scans"]

    /// Names are cut at 40 columns in the table; addresses only to fit a terminal, they are how prospects are named.
    static func column(_ name: String) -> TextTable.Column {
        switch name {
        case "id": .init("ID", keepsWidth: true)
        case "name": .init("NAME", limit: 40)
        case "organization", "title": .init(name.uppercased(), limit: 30)
        case "by": .init("COLLECTED BY", limit: 20)
        default: .init(name.uppercased())
        }
    }

    static func cell(_ column: String, _ stored: StoredProspect) -> String {
        let prospect = stored.prospect
        return switch column {
        case "id": String(stored.id)
        case "name": SafeText.escaped(prospect.name)
        case "email": SafeText.escaped(prospect.email)
        case "phone": SafeText.escaped(prospect.phone ?? "")
        case "organization": SafeText.escaped(prospect.organization ?? "")
        case "title": SafeText.escaped(prospect.title ?? "")
        case "rating": stored.rating == .none ? "" : stored.rating.rawValue
        case "tags": stored.tags.map { SafeText.escaped($0) }.joined(separator: ",")
        case "contacted": stored.isContacted ? "yes" : "no"
        case "added": HumanText.date(stored.createdAt)
        case "scans": String(stored.scanCount)
        case "event": SafeText.escaped(stored.firstEvent ?? "")
        case "by": SafeText.escaped(stored.firstCollectedBy ?? "")
        case "reminder": stored.remindAt.map { HumanText.date($0) } ?? ""
        default: ""
        }
    }
}
