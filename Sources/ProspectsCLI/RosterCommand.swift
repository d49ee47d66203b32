import Foundation
import ProspectsCore
import ProspectsExchange
import ProspectsService

/// `prospects roster`: an event's attendee list, imported from the organiser's CSV export, listed and shown.
struct RosterCommand: Subcommand {
    static let name = "roster"
    static let abstract = "Import, list or show an event's attendee list (badges that hold only an ID)."
    static let help = """
        USAGE: prospects roster import --event <event> [--profile eventbrite] [--columns <field>=<header>,...]
                                       [--store <location>] <file.csv>
               prospects roster list --event <event> [--store <location>]
               prospects roster show --event <event> [--store <location>] <attendee-id>

        ARGUMENTS:
          <file.csv>              the attendee list, CSV with a header row (UTF-8; ',', ';' or TAB)
          <attendee-id>           the ID, barcode or ticket number a badge's code holds

        OPTIONS:
        \(storeOptionHelp)
          --event <event>         the event the list is of (made if it is new)
          --profile eventbrite    Eventbrite's attendee report: the ID is "Barcode #", then "First Name",
                                  "Last Name", "Email", "Company", "Job Title", "Work Phone"
          --columns <pairs>       which header names the columns: id=…,name=…,first=…,last=…,email=…,company=…,
                                  title=…,phone=… (the others are still found by their usual names)
          -h, --help              show this help

        Without a profile or --columns, the columns are found by their names: an ID (Barcode, Ticket Number,
        Registration ID, Attendee ID, ID…), Name or First Name and Last Name, Email, Company, Job Title, Phone.
        A row without an ID or a name, or with an address that is none, is refused with its line and the rest
        imported; a row of an ID the roster holds replaces it, so an updated list imported again updates it.
        Exit status: 0 when every row was imported, 65 when rows were refused (the others are imported) or there is
        no such event, 66 for a list that cannot be read.
        """
    static let flags: Set<String> = []
    static let options: Set<String> = ["--store", "--event", "--profile", "--columns"]
    static let optionValues: [String: [String]] = ["--profile": RosterColumns.Profile.allCases.map(\.rawValue)]

    enum Action {
        case importList(path: String, profile: RosterColumns.Profile?, columns: [RosterColumns.Field: String])
        case list
        case show(attendeeID: String)
    }

    let arguments: CommandLineArguments
    let event: String
    let action: Action

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard let event = arguments.value("--event") else { throw UsageError("roster needs --event <event>") }
        self.event = event
        let words = arguments.positionals
        switch (words.first, words.count) {
        case ("import", 2):
            var profile: RosterColumns.Profile?
            if let text = arguments.value("--profile") {
                guard let named = RosterColumns.Profile(rawValue: text) else {
                    throw UsageError("--profile must be eventbrite, not \(SafeText.escaped(text))")
                }
                profile = named
            }
            var columns: [RosterColumns.Field: String] = [:]
            if let text = arguments.value("--columns") {
                do { columns = try RosterColumns.parse(text) } catch { throw UsageError(error.message) }
            }
            action = .importList(path: words[1], profile: profile, columns: columns)
        case ("list", 1): action = .list
        case ("show", 2): action = .show(attendeeID: words[1])
        default:
            throw UsageError(
                "use: roster import --event <event> <file.csv>, roster list --event <event>, "
                    + "or roster show --event <event> <attendee-id>")
        }
        if case .importList = action {
        } else if arguments.value("--profile") != nil || arguments.value("--columns") != nil {
            throw UsageError("--profile and --columns go with roster import")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = context.service(arguments)
        let out = context.console.out
        do {
            switch action {
            case .importList(let path, let profile, let columns):
                return try importList(path, profile, columns, service, context)
            case .list:
                let attendees = try service.roster(of: event)
                var table = TextTable(
                    [
                        .init("ID", keepsWidth: true), .init("NAME", limit: 40), .init("EMAIL"),
                        .init("COMPANY", limit: 30), .init("TITLE", limit: 30),
                    ], out: out)
                for attendee in attendees {
                    table.add(
                        [
                            attendee.attendeeID, attendee.name, attendee.email ?? "", attendee.organization ?? "",
                            attendee.title ?? "",
                        ].map { SafeText.escaped($0) })
                }
                table.finish()
                out.line(attendees.count == 1 ? "1 attendee" : "\(attendees.count) attendees")
            case .show(let id):
                guard let attendee = try service.attendee(id, of: event) else {
                    throw CommandFailure(
                        message: "the roster of \(SafeText.escaped(event)) has no attendee \(SafeText.escaped(id))",
                        status: .dataError)
                }
                out.line("attendee:       \(SafeText.escaped(attendee.attendeeID))")
                out.line("name:           \(SafeText.escaped(attendee.name))")
                for (label, value) in [
                    ("email:          ", attendee.email), ("company:        ", attendee.organization),
                    ("title:          ", attendee.title), ("phone:          ", attendee.phone),
                ] {
                    if let value { out.line(label + SafeText.escaped(value)) }
                }
                out.line("from:           \(SafeText.escaped(attendee.source)), \(HumanText.date(attendee.importedAt))")
            }
        } catch let error as EventError {
            if case .store(let storeError) = error { throw storeError }
            throw CommandFailure(message: error.message, status: .dataError)
        }
        return .success
    }

    private func importList(
        _ path: String, _ profile: RosterColumns.Profile?, _ columns: [RosterColumns.Field: String],
        _ service: ProspectsService, _ context: CommandContext
    ) throws -> ExitCode {
        let report: RosterImportReport
        do {
            report = try service.importRoster(event: event, path: path, profile: profile, columns: columns)
        } catch {
            switch error {
            case .store(let storeError): throw storeError
            case .event(let eventError): throw UsageError(eventError.message)
            case .list(_, let listError):
                switch listError {
                case .unreadable: throw CommandFailure(message: error.message, status: .noInput)
                case .invalidColumns: throw UsageError(listError.message)
                case .wrongFormat, .missingColumn, .refused:
                    throw CommandFailure(message: error.message, status: .dataError)
                }
            }
        }
        let shown = SafeText.escaped(path)
        for refusal in report.refused {
            if case .refused(let line, let reason) = refusal { context.console.warn("\(shown):\(line): \(reason)") }
        }
        let rows = report.added + report.updated + report.refused.count
        context.console.out.line(
            "\(rows == 1 ? "1 row" : "\(rows) rows"): \(report.added) added, \(report.updated) updated, "
                + "\(report.refused.count) refused — roster of \(SafeText.escaped(report.event))")
        return report.refused.isEmpty ? .success : .dataError
    }
}
