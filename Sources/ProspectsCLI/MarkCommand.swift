import ProspectsCore
import ProspectsService

/// `prospects mark`: the app's "Mark Contacted" / "Mark Uncontacted" swipe action, for many prospects at once.
struct MarkCommand: Subcommand {
    static let name = "mark"
    static let abstract = "Mark prospects as contacted or uncontacted."
    static let help = """
        USAGE: prospects mark [--store <location>] (--contacted | --uncontacted) <email-or-id> ...

        ARGUMENTS:
          <email-or-id>           an email address (any case) or a prospect id as shown by 'list' (42 or #42)

        OPTIONS:
        \(storeOptionHelp)
          --contacted             mark as contacted
          --uncontacted           mark as not contacted
          -h, --help              show this help

        Exit status: 0 when every prospect was found, 65 when one was not (the others are still marked).
        """
    static let flags: Set<String> = ["--contacted", "--uncontacted"]
    static let options: Set<String> = ["--store"]

    let arguments: CommandLineArguments
    let contacted: Bool

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        switch (arguments.has("--contacted"), arguments.has("--uncontacted")) {
        case (true, false): contacted = true
        case (false, true): contacted = false
        default: throw UsageError("give exactly one of --contacted or --uncontacted")
        }
        guard !arguments.positionals.isEmpty else { throw UsageError("mark needs at least one email address or id") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = context.service(arguments)
        return try forEachReference(arguments.positionals, context) { reference throws(StoreError) in
            try service.setContacted(reference, contacted)
        } done: { text in
            "\(text): marked \(contacted ? "contacted" : "uncontacted")"
        }
    }
}

/// Applies `update` to each prospect named on the command line; unknown ones are reported and make the status 65.
func forEachReference(
    _ texts: [String], _ context: CommandContext, update: (ProspectReference) throws(StoreError) -> Bool,
    done: (String) -> String
) throws(StoreError) -> ExitCode {
    var status = ExitCode.success
    for text in texts {
        let shown = SafeText.escaped(text)
        if try update(ProspectReference(parsing: text)) {
            context.console.out.line(done(shown))
        } else {
            context.console.warn("\(shown): no such prospect")
            status = .dataError
        }
    }
    return status
}
