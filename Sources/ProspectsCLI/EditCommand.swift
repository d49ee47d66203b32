import Foundation
import ProspectsCore
import ProspectsService

/// `prospects edit`: corrects a lead's own fields.
struct EditCommand: Subcommand {
    static let name = "edit"
    static let abstract = "Correct a prospect's name, address, phone, organization or title."
    static let help = """
        USAGE: prospects edit [--store <location>] [--name <name>] [--email <address>] [--phone <number>]
                              [--organization <name>] [--title <title>] <email-or-id>

        OPTIONS:
        \(storeOptionHelp)
          --name <name>           the display name
          --email <address>       a new address: the prospect is known by it from now on; one another prospect
                                  has is refused, naming that prospect
          --phone <number>        '' clears it
          --organization <name>   '' clears it
          --title <title>         the job title; '' clears it
          -h, --help              show this help

        Each value is checked as a scanned card's is. Exit status: 0 when edited, 65 when there is no such prospect,
        a value is refused or the address is another prospect's.
        """
    static let flags: Set<String> = []
    static let options: Set<String> = ["--store", "--name", "--email", "--phone", "--organization", "--title"]

    let arguments: CommandLineArguments
    let edit: ProspectEdit

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.positionals.count == 1 else { throw UsageError("edit needs exactly one email address or id") }
        func clearable(_ option: String) -> String?? {
            arguments.value(option).map { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        }
        edit = ProspectEdit(
            name: arguments.value("--name"), email: arguments.value("--email"), phone: clearable("--phone"),
            organization: clearable("--organization"), title: clearable("--title"))
        guard edit != ProspectEdit() else {
            throw UsageError("give at least one of --name, --email, --phone, --organization or --title")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        try changingLead(arguments.positionals[0], arguments, context) { service, reference throws(LeadChangeError) in
            let stored = try service.edit(reference, edit)
            return "edited: #\(stored.id) \(HumanText.prospect(stored.prospect))"
        }
    }
}
