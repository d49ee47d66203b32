import Foundation
import ProspectsCore
import ProspectsService

/// `prospects event`: the events leads are collected at, as records with their days, place and badge pattern.
struct EventCommand: Subcommand {
    static let name = "event"
    static let abstract = "Add, list, show or edit the events leads are collected at."
    static let help = """
        USAGE: prospects event add <name> [--starts <day>] [--ends <day>] [--location <text>]
                                   [--badge-pattern <regex>] [--store <location>]
               prospects event edit <name> [--starts <day>] [--ends <day>] [--location <text>]
                                    [--badge-pattern <regex>] [--store <location>]
               prospects event list [--store <location>]
               prospects event show <name> [--store <location>]

        ARGUMENTS:
          <name>                  the event's name, as --event gives it to ingest, import and watch

        OPTIONS:
        \(storeOptionHelp)
          --starts <day>          the first day, YYYY-MM-DD ('' clears it)
          --ends <day>            the last day, YYYY-MM-DD ('' clears it)
          --location <text>       where it is ('' clears it)
          --badge-pattern <regex> how to find the attendee ID in a badge's code: a regular expression with one
                                  named group, e.g. 'https://reg\\.example/b/(?<id>[0-9]+)' ('' clears it)
          -h, --help              show this help

        An event --event names for the first time is made as its first scan is recorded; 'event edit' then gives
        it days, a place and a badge pattern. See docs/events.md.
        Exit status: 0 on success, 64 for a bad option or day, 65 for a name taken or unknown.
        """
    static let flags: Set<String> = []
    static let options: Set<String> = ["--store", "--starts", "--ends", "--location", "--badge-pattern"]

    enum Action {
        case add(name: String), edit(name: String), list, show(name: String)
    }

    let arguments: CommandLineArguments
    let action: Action
    let changes: EventChanges

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        let words = arguments.positionals
        switch (words.first, words.count) {
        case ("add", 2): action = .add(name: words[1])
        case ("edit", 2): action = .edit(name: words[1])
        case ("list", 1): action = .list
        case ("show", 2): action = .show(name: words[1])
        default:
            throw UsageError("use: event add <name>, event edit <name>, event list, or event show <name>")
        }
        changes = EventChanges(
            starts: arguments.value("--starts"), ends: arguments.value("--ends"),
            location: arguments.value("--location"), badgePattern: arguments.value("--badge-pattern"))
        switch action {
        case .add: break
        case .edit:
            guard changes != EventChanges() else {
                throw UsageError("event edit needs --starts, --ends, --location or --badge-pattern")
            }
        case .list, .show:
            guard changes == EventChanges() else {
                throw UsageError("--starts, --ends, --location and --badge-pattern go with event add and edit")
            }
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = context.service(arguments)
        let out = context.console.out
        do {
            switch action {
            case .add(let name):
                let event = try service.addEvent(name: name, changes)
                out.line("added event \(SafeText.escaped(event.name))")
            case .edit(let name):
                let event = try service.editEvent(name: name, changes)
                out.line("changed event \(SafeText.escaped(event.name))")
            case .list:
                var table = TextTable(
                    [
                        .init("EVENT", limit: 40), .init("STARTS"), .init("ENDS"), .init("LOCATION", limit: 30),
                        .init("LEADS"), .init("ATTENDEES"),
                    ], out: out)
                let summaries = try service.eventSummaries()
                for summary in summaries {
                    let event = summary.event
                    table.add([
                        SafeText.escaped(event.name), event.starts?.description ?? "", event.ends?.description ?? "",
                        SafeText.escaped(event.location ?? ""), String(summary.leads), String(summary.attendees),
                    ])
                }
                table.finish()
                out.line(summaries.count == 1 ? "1 event" : "\(summaries.count) events")
            case .show(let name):
                let summary = try service.eventSummary(named: name)
                let event = summary.event
                out.line("event:          \(SafeText.escaped(event.name))")
                if let starts = event.starts { out.line("starts:         \(starts)") }
                if let ends = event.ends { out.line("ends:           \(ends)") }
                if let location = event.location { out.line("location:       \(SafeText.escaped(location))") }
                if let pattern = event.badgePattern { out.line("badge pattern:  \(SafeText.escaped(pattern))") }
                out.line("leads:          \(summary.leads) (\(summary.scans) \(summary.scans == 1 ? "scan" : "scans"))")
                out.line("attendees:      \(summary.attendees)")
                out.line("added:          \(HumanText.date(event.createdAt))")
            }
        } catch let error as EventError {
            switch error {
            case .store(let storeError): throw storeError
            case .invalidDay, .endsBeforeItStarts, .invalidBadgePattern, .invalidText, .blankName:
                throw UsageError(error.message)
            case .nameTaken, .noSuchEvent: throw CommandFailure(message: error.message, status: .dataError)
            }
        }
        return .success
    }
}
