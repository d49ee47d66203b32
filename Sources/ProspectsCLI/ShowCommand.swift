import Foundation
import ProspectsCore
import ProspectsExchange
import ProspectsService

/// `prospects show`: everything known about one prospect, notes and scan history included.
struct ShowCommand: Subcommand {
    static let name = "show"
    static let abstract = "Show everything known about one prospect, with its notes and scan history."
    static let help = """
        USAGE: prospects show [--store <location>] [--json] <email-or-id-or-search>

        ARGUMENTS:
          <email-or-id-or-search> an email address, an id (42 or #42), or a search (as list --search) that matches
                                  exactly one prospect

        OPTIONS:
        \(storeOptionHelp)
          --json                  one JSON object with the list's keys, "notes" ({writtenAt, author, text}),
                                  "events", "collectors" and a "history" array of {source, seenAt, event,
                                  collectedBy}
          -h, --help              show this help

        Exit status: 0 when found, 65 when no prospect (or more than one) matches.
        """
    static let flags: Set<String> = ["--json"]
    static let options: Set<String> = ["--store"]

    let arguments: CommandLineArguments

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        guard arguments.positionals.count == 1 else {
            throw UsageError("show needs exactly one email address, id or search")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let text = arguments.positionals[0]
        let service = context.service(arguments)
        let stored: StoredProspect
        switch try service.lookUp(text) {
        case .found(let found): stored = found
        case .none:
            context.console.warn("\(SafeText.escaped(text)): no such prospect")
            return .dataError
        case .several(let matches):
            let named = matches.prefix(5).map { "#\($0.id) \(HumanText.prospect($0.prospect))" }
            context.console.warn(
                "\(SafeText.escaped(text)) matches more than one prospect (\(named.joined(separator: ", "))"
                    + "\(matches.count > 5 ? ", …" : "")); give an address or an id")
            return .dataError
        }
        let details = try service.details(of: stored)
        let out = context.console.out
        if arguments.has("--json") {
            out.line(Self.json(details).rendered)
            return .success
        }
        for (label, value) in Self.rows(details) {
            out.line("\(label.padding(toLength: 13, withPad: " ", startingAt: 0))\(value)")
        }
        if !details.notes.isEmpty {
            out.line("notes:")
            for note in details.notes {
                let by = note.author.isEmpty ? "" : " \(SafeText.escaped(note.author))"
                out.line("  \(HumanText.date(note.writtenAt))\(by): \(SafeText.escaped(note.text))")
            }
        }
        out.line("history:")
        for record in details.history {
            var line = "  \(HumanText.date(record.seenAt))  \(SafeText.escaped(record.source))"
            if let event = record.event { line += "  at \(SafeText.escaped(event))" }
            if let by = record.collectedBy { line += "  by \(SafeText.escaped(by))" }
            out.line(line)
        }
        return .success
    }

    /// The JSON object: the export's keys with every note, the events and collectors, and the history.
    static func json(_ details: ProspectDetails) -> JSONLine {
        var json = ProspectExporter.jsonObject(details.stored, notes: details.notes)
        if details.notes.isEmpty { json.add("notes", rawArray: []) }
        json.add("events", rawArray: details.events.map(JSONLine.quote))
        json.add("collectors", rawArray: details.collectors.map(JSONLine.quote))
        json.add(
            "history",
            array: details.history.map { record in
                var line = JSONLine()
                line.add("source", record.source)
                line.add("seenAt", record.seenAt)
                line.add("event", record.event)
                line.add("collectedBy", record.collectedBy)
                return line
            })
        return json
    }

    /// The labelled lines before the notes and the history.
    static func rows(_ details: ProspectDetails) -> [(String, String)] {
        let stored = details.stored
        let p = stored.prospect
        var rows: [(String, String)] = [
            ("id", String(stored.id)), ("name", SafeText.escaped(p.name)), ("email", SafeText.escaped(p.email)),
        ]
        if !p.otherEmails.isEmpty {
            rows.append(("other emails", p.otherEmails.map { SafeText.escaped($0) }.joined(separator: ", ")))
        }
        if let parts = p.nameParts {
            let labelled = zip(["family", "given", "middle", "prefix", "suffix"], parts.components)
                .filter { !$0.1.isEmpty }.map { "\($0.0) \(SafeText.escaped($0.1))" }
            rows.append(("name parts", labelled.joined(separator: "; ")))
        }
        if let title = p.title { rows.append(("title", SafeText.escaped(title))) }
        if let phone = p.phone { rows.append(("phone", SafeText.escaped(phone))) }
        if !p.otherPhones.isEmpty {
            rows.append(("other phones", p.otherPhones.map { SafeText.escaped($0) }.joined(separator: ", ")))
        }
        if let organization = p.organization { rows.append(("organization", SafeText.escaped(organization))) }
        rows.append(("rating", stored.rating.rawValue))
        if !stored.tags.isEmpty {
            rows.append(("tags", stored.tags.map { SafeText.escaped($0) }.joined(separator: ", ")))
        }
        if !details.events.isEmpty {
            rows.append(("events", details.events.map { SafeText.escaped($0) }.joined(separator: ", ")))
        }
        if !details.collectors.isEmpty {
            rows.append(("collected by", details.collectors.map { SafeText.escaped($0) }.joined(separator: ", ")))
        }
        rows += [
            ("contacted", stored.isContacted ? "yes" : "no"),
            ("added", HumanText.date(stored.createdAt)),
            ("last seen", HumanText.date(stored.lastSeenAt)),
            ("scans", String(stored.scanCount)),
            ("first source", SafeText.escaped(stored.firstSource)),
        ]
        if let remindAt = stored.remindAt { rows.append(("reminder", HumanText.date(remindAt))) }
        return rows
    }
}
