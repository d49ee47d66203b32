import ProspectStore
import ProspectsCore

/// `prospects delete`: the app's swipe-to-delete and "Delete Selected".
struct DeleteCommand: Subcommand {
    static let name = "delete"
    static let abstract = "Delete prospects (and their scan history) from the store."
    static let help = """
        USAGE: prospects delete [--store <location>] <email-or-id> ...

        ARGUMENTS:
          <email-or-id>           an email address (any case) or a prospect id as shown by 'list'

        OPTIONS:
        \(storeOptionHelp)
          -h, --help              show this help

        Exit status: 0 when every prospect was found, 65 when one was not (the others are still deleted).
        """
    static let flags: Set<String> = []
    static let options: Set<String> = ["--store"]

    let arguments: CommandLineArguments

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard !arguments.positionals.isEmpty else { throw UsageError("delete needs at least one email address or id") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let store = try context.openStore(arguments)
        let console = context.console
        var status = ExitCode.success
        // Every argument is looked up before anything is deleted: in `delete 5 ada@example.org`, where Ada is #5,
        // both name her, and the second must not report her missing because the first deleted her.
        var found: [(shown: String, id: Int64)] = []
        for text in arguments.positionals {
            let shown = SafeText.escaped(text)
            if let prospect = try store.prospect(ProspectReference(parsing: text)) {
                found.append((shown, prospect.id))
            } else {
                console.warn("\(shown): no such prospect")
                status = .dataError
            }
        }
        var deleted: Set<Int64> = []
        for (shown, id) in found {
            // false: another process deleted it in between; it is gone all the same, but not by this command.
            if !deleted.contains(id), try !store.delete(.id(id)) {
                console.warn("\(shown): no such prospect")
                status = .dataError
                continue
            }
            deleted.insert(id)
            console.out.line("\(shown): deleted")
        }
        return status
    }
}
