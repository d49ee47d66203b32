import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsService

/// `prospects show`: everything known about one prospect, scan history included.
struct ShowCommand: Subcommand {
    static let name = "show"
    static let abstract = "Show everything known about one prospect, with its scan history."
    static let help = """
        USAGE: prospects show [--store <location>] [--json] <email-or-id>

        OPTIONS:
        \(storeOptionHelp)
          --json                  one JSON object with a "history" array of {source, seenAt}
          -h, --help              show this help

        Exit status: 0 when found, 65 when no such prospect.
        """
    static let flags: Set<String> = ["--json"]
    static let options: Set<String> = ["--store"]

    let arguments: CommandLineArguments

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.positionals.count == 1 else { throw UsageError("show needs exactly one email address or id") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let text = arguments.positionals[0]
        guard let details = try context.service(arguments).details(of: ProspectReference(parsing: text)) else {
            context.console.warn("\(SafeText.escaped(text)): no such prospect")
            return .dataError
        }
        let stored = details.stored
        let history = details.history
        let out = context.console.out
        if arguments.has("--json") {
            var json = JSONRecords.stored(stored)
            json.add(
                "history",
                array: history.map { record in
                    var line = JSONLine()
                    line.add("source", record.source)
                    line.add("seenAt", record.seenAt)
                    return line
                })
            out.line(json.rendered)
            return .success
        }
        let p = stored.prospect
        var rows: [(String, String)] = [
            ("id", String(stored.id)), ("name", SafeText.escaped(p.name)), ("email", SafeText.escaped(p.email)),
        ]
        if let phone = p.phone { rows.append(("phone", SafeText.escaped(phone))) }
        if let organization = p.organization { rows.append(("organization", SafeText.escaped(organization))) }
        rows += [
            ("contacted", stored.isContacted ? "yes" : "no"),
            ("added", HumanText.date(stored.createdAt)),
            ("last seen", HumanText.date(stored.lastSeenAt)),
            ("scans", String(stored.scanCount)),
            ("first source", SafeText.escaped(stored.firstSource)),
        ]
        if let remindAt = stored.remindAt { rows.append(("reminder", HumanText.date(remindAt))) }
        for (label, value) in rows { out.line("\(label.padding(toLength: 13, withPad: " ", startingAt: 0))\(value)") }
        out.line("history:")
        for record in history { out.line("  \(HumanText.date(record.seenAt))  \(SafeText.escaped(record.source))") }
        return .success
    }
}
