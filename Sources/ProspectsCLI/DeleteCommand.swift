import ProspectsCore
import ProspectsService

/// `prospects delete`: the app's swipe-to-delete and "Delete Selected".
struct DeleteCommand: Subcommand {
    static let name = "delete"
    static let abstract = "Delete prospects (and their scan history) from the store."
    static let help = """
        USAGE: prospects delete [--store <location>] [--yes] <email-or-id> ...

        ARGUMENTS:
          <email-or-id>           an email address (any case) or a prospect id as shown by 'list'

        OPTIONS:
        \(storeOptionHelp)
          --yes                   do not ask (on a terminal, deleting more than one prospect asks first)
          -h, --help              show this help

        Exit status: 0 when every prospect was found, 65 when one was not (the others are still deleted); a question
        answered no deletes nothing, with status 0.
        """
    static let flags: Set<String> = ["--yes"]
    static let options: Set<String> = ["--store"]

    let arguments: CommandLineArguments

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard !arguments.positionals.isEmpty else { throw UsageError("delete needs at least one email address or id") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let console = context.console
        var status = ExitCode.success
        let texts = arguments.positionals
        if texts.count > 1, !arguments.has("--yes"),
            console.confirm("Delete \(texts.count) prospects and their scan history?") == false
        {
            console.warn("nothing deleted")
            return .success
        }
        try context.service(arguments).delete(texts.map(ProspectReference.init(parsing:))) { index, deleted in
            let shown = SafeText.escaped(texts[index])
            if deleted {
                console.out.line("\(shown): deleted")
            } else {
                console.warn("\(shown): no such prospect")
                status = .dataError
            }
        }
        return status
    }
}
