import Foundation
import ProspectsCore
import ProspectsService

/// `prospects note`: appends a note to a lead, signed by whoever wrote it.
struct NoteCommand: Subcommand {
    static let name = "note"
    static let abstract = "Add a note to a prospect (notes are appended, each with its author and time)."
    static let help = """
        USAGE: prospects note [--store <location>] [--by <name>] <email-or-id> <text> ...

        ARGUMENTS:
          <email-or-id>           an email address (any case) or a prospect id as shown by 'list' (42 or #42)
          <text>                  the note; several words are joined by spaces

        OPTIONS:
        \(storeOptionHelp)
          --by <name>             the note's author (default: the login name)
          -h, --help              show this help

        Exit status: 0 when the note was added, 65 when there is no such prospect or the text is refused.
        """
    static let flags: Set<String> = []
    static let options: Set<String> = ["--store", "--by"]

    let arguments: CommandLineArguments

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.positionals.count >= 2 else { throw UsageError("note needs an email address or id and a text") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let target = arguments.positionals[0]
        let text = arguments.positionals.dropFirst().joined(separator: " ")
        return try changingLead(target, arguments, context) { service, reference throws(LeadChangeError) in
            let note = try service.addNote(
                reference, text: text, author: context.collector(arguments), at: Date())
            return "note added by \(SafeText.escaped(note.author)) at \(HumanText.date(note.writtenAt))"
        }
    }
}

/// Runs one change on the lead `text` names and prints `TEXT: what it did`; a refusal is said on stderr, 65.
func changingLead(
    _ text: String, _ arguments: CommandLineArguments, _ context: CommandContext,
    change: (ProspectsService, ProspectReference) throws(LeadChangeError) -> String
) throws(StoreError) -> ExitCode {
    let shown = SafeText.escaped(text)
    let service = context.service(arguments)
    do throws(LeadChangeError) {
        context.console.out.line("\(shown): \(try change(service, ProspectReference(parsing: text)))")
        return .success
    } catch {
        if case .store(let error) = error { throw error }
        context.console.warn("\(shown): \(error.message)")
        return .dataError
    }
}
