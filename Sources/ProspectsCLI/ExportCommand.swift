import ProspectsCore
import ProspectsExchange
import ProspectsService

/// `prospects export`: the list in a format a spreadsheet, a CRM or a contacts app reads.
struct ExportCommand: Subcommand {
    static let name = "export"
    static let abstract = "Export the prospects as CSV, vCard or JSON Lines."
    static let help = """
        USAGE: prospects export [--store <location>] --format csv|json|vcard [--filter <tab>] [--search <text>]
                                [--rating <rating>] [--tag <tag>] [--event <event>] [--by <name>]
                                [--sort <order>] [--reverse] [--profile <crm>] [--no-formula-guard] [-o <file>]

        OPTIONS:
        \(storeOptionHelp)
          --format <format>       csv (RFC 4180, formula-injection guarded), json (JSON Lines) or vcard (vCard 4.0)
          --filter, --search, --rating, --tag, --event, --by, --sort, --reverse
                                  as for 'list'
          --profile <crm>         csv: hubspot, salesforce or google, that product's import columns in place
                                  of ours (Salesforce's required Last Name and Company say [not provided]
                                  when unknown)
          --no-formula-guard      csv: no ' before cells starting with = + - @ (a file for a CRM or a program,
                                  not a spreadsheet: +1 555 0100 stays a phone number)
          -o, --output <file>     write to this file (mode 0600, replaced atomically, never a database; a link is
                                  followed, a device or FIFO written through); - or no -o: stdout
          -h, --help              show this help
        """
    static let flags: Set<String> = ["--reverse", "--no-formula-guard"]
    static let options: Set<String> = [
        "--store", "--format", "--filter", "--sort", "-o", "--output", "--search", "--rating", "--tag", "--event",
        "--by", "--profile",
    ]
    static let optionValues = ListCommand.optionValues.merging([
        "--format": ExportFormat.allCases.map(\.rawValue), "--profile": CSVProfile.allCases.map(\.rawValue),
    ]) { $1 }

    let arguments: CommandLineArguments
    let format: ExportFormat
    let query: ProspectQuery
    let output: String?
    let profile: CSVProfile?

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.value("--format") != nil else { throw UsageError("export needs --format csv|json|vcard") }
        format = try arguments.choice("--format", default: .csv)
        query = try ListCommand.query(arguments)
        let output = arguments.value("-o") ?? arguments.value("--output")
        guard output != "" else { throw UsageError("-o needs a file name") }
        self.output = output == "-" ? nil : output  // `-o -`: stdout, as usual
        guard arguments.positionals.isEmpty else { throw UsageError("export takes no arguments; use -o <file>") }
        if arguments.has("--no-formula-guard") && format != .csv {
            throw UsageError("--no-formula-guard concerns --format csv only")
        }
        profile = try arguments.choice("--profile")
        if profile != nil && format != .csv { throw UsageError("--profile concerns --format csv only") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let out = context.console.out
        // A closed or full stdout is reported when the command ends; formatting the rest would be for nothing.
        let destination =
            output.map { ExportDestination.file(path: $0) }
            ?? .stream { chunk in
                out.bytes(chunk)
                return out.writeError == nil
            }
        let count = try context.service(arguments).export(
            query, format: format, guardsFormulas: !arguments.has("--no-formula-guard"), profile: profile,
            to: destination)
        guard let output else { return .success }
        context.console.warn("exported \(HumanText.count(count, "prospect")) to \(SafeText.escaped(output))")
        return .success
    }
}
