import Foundation
import ProspectsCore
import ProspectsExchange
import ProspectsService

/// `prospects remind`: the app's "Remind Me" swipe action, as a stored reminder that `due` lists.
struct RemindCommand: Subcommand {
    static let name = "remind"
    static let abstract = "Set a reminder to contact a prospect (see 'due')."
    static let help = """
        USAGE: prospects remind [--store <location>] (--at <date> | --in <duration> | --clear) <email-or-id> ...

        OPTIONS:
        \(storeOptionHelp)
          --at <date>             2026-12-01 (09:00 local), 2026-12-01 14:30 (local), ISO 8601
                                  (2026-12-01T14:30:00Z), or as said: 'tomorrow 9:00', 'today 17:30', friday (the
                                  next one, 09:00), 'fri 2pm', 'in 3 days', 'in 2 hours'
          --in <duration>         from now: 90s, 30m, 2h, 1d, 1w, a sum such as 1h30m, or '3 days'

          --clear                 remove the reminder
          -h, --help              show this help

        A time already past is set all the same, with a warning. Exit status: 0 when every prospect was found, 65
        when one was not.
        """
    static let flags: Set<String> = ["--clear"]
    static let options: Set<String> = ["--store", "--at", "--in"]

    let arguments: CommandLineArguments
    let date: Date?
    let now: Date

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        let now = Date()
        self.now = now
        let at = try arguments.value(
            "--at",
            expected:
                "a date from year 1 to 9999: 2026-12-01, '2026-12-01 14:30' (local time), ISO 8601, "
                + "'tomorrow 9:00', friday or 'in 3 days'"
        ) { ReminderTime.parse($0, now: now, timeZone: .current) }
        let after = try arguments.value(
            "--in", expected: "a duration up to a century: 90s, 30m, 2h, 1d, 1w, 1h30m or '3 days'"
        ) { ReminderTime.parseFromNow($0, now: now, timeZone: .current) }
        switch (at, after, arguments.has("--clear")) {
        case (let at?, nil, false): date = at
        case (nil, let after?, false): date = after
        case (nil, nil, true): date = nil
        default: throw UsageError("give exactly one of --at, --in or --clear")
        }
        guard !arguments.positionals.isEmpty else { throw UsageError("remind needs at least one email address or id") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = context.service(arguments)
        if let date, date < now {
            context.console.warn("\(HumanText.date(date)) is already past; the reminder is due at once")
        }
        return try forEachReference(arguments.positionals, context) { reference throws(StoreError) in
            try service.setReminder(reference, at: date)
        } done: { text in
            date.map { "\(text): reminder at \(HumanText.date($0))" } ?? "\(text): reminder cleared"
        }
    }
}

/// `prospects due`: the reminders whose time has come.
struct DueCommand: Subcommand {
    static let name = "due"
    static let abstract = "List the prospects whose reminder is due."
    static let help = """
        USAGE: prospects due [--store <location>] [--json]

        OPTIONS:
        \(storeOptionHelp)
          --json                  one JSON object per line
          -h, --help              show this help
        """
    static let flags: Set<String> = ["--json"]
    static let options: Set<String> = ["--store"]

    let arguments: CommandLineArguments

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.positionals.isEmpty else { throw UsageError("due takes no arguments") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let due = try context.service(arguments).due(at: Date())
        let out = context.console.out
        if arguments.has("--json") {
            for stored in due { out.line(JSONRecords.stored(stored).rendered) }
            return .success
        }
        var table = TextTable(
            [.init("ID"), .init("NAME", limit: 40), .init("EMAIL"), .init("DUE"), .init("CONTACTED")], out: out)
        for stored in due {
            table.add([
                String(stored.id), SafeText.escaped(stored.prospect.name), SafeText.escaped(stored.prospect.email),
                stored.remindAt.map { HumanText.date($0) } ?? "", stored.isContacted ? "yes" : "no",
            ])
        }
        table.finish()
        out.line("\(due.count) due")
        return .success
    }
}
