import Foundation
import ProspectsCore
import ProspectsService

/// `prospects tag`: free words on a lead (a product of interest), added with `+word` and removed with `-word`.
struct TagCommand: Subcommand {
    static let name = "tag"
    static let abstract = "Add (+word) and remove (-word) a prospect's tags."
    static let help = """
        USAGE: prospects tag [--store <location>] <email-or-id> +<tag>|-<tag> ...

        ARGUMENTS:
          +<tag>                  add the tag (a word alone adds it too)
          -<tag>                  remove the tag (one it lacks is no error)

        OPTIONS:
        \(storeOptionHelp)
          -h, --help              show this help

        Exit status: 0 when tagged, 65 when there is no such prospect or a tag is refused.
        """
    static let flags: Set<String> = []
    static let options: Set<String> = ["--store"]
    static let takesDashWords = true

    let arguments: CommandLineArguments
    let adding: [String]
    let removing: [String]

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.positionals.count >= 2 else {
            throw UsageError("tag needs an email address or id and at least one +tag or -tag")
        }
        var adding: [String] = []
        var removing: [String] = []
        for word in arguments.positionals.dropFirst() {
            if word.hasPrefix("-") {
                removing.append(String(word.dropFirst()))
            } else {
                adding.append(word.hasPrefix("+") ? String(word.dropFirst()) : word)
            }
        }
        self.adding = adding
        self.removing = removing
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        try changingLead(arguments.positionals[0], arguments, context) { service, reference throws(LeadChangeError) in
            let tags = try service.changeTags(reference, adding: adding, removing: removing)
            return tags.isEmpty ? "no tags" : "tags: " + tags.map { SafeText.escaped($0) }.joined(separator: ", ")
        }
    }
}
