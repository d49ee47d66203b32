import Foundation
import ProspectsCore
import ProspectsExchange

/// The `prospects` command: picks the subcommand, runs it, and turns every error into a message and an exit status.
public enum ProspectsCommand {
    public static let version = "0.1.0"

    static let subcommands: [any Subcommand.Type] = [
        DecodeCommand.self, IngestCommand.self, ListCommand.self, ShowCommand.self, MarkCommand.self,
        NoteCommand.self, RateCommand.self, TagCommand.self, EditCommand.self, DeleteCommand.self, RemindCommand.self,
        DueCommand.self, ExportCommand.self, ImportCommand.self, EventCommand.self, RosterCommand.self,
        EncodeCommand.self,
        WatchCommand.self, ServeCommand.self, UserCommand.self, CopyCommand.self,
        CompletionsCommand.self,
    ]

    /// Runs with the process's arguments and environment and exits.
    public static func main() -> Never {
        let status = run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        exit(status.rawValue)
    }

    /// Runs one command line, writing to `console` (stdout and stderr unless a test gives streams in memory).
    static func run(_ argv: [String], environment: [String: String], console: Console = Console()) -> ExitCode {
        defer { console.flush() }
        let status = dispatch(argv, environment: environment, console: console)
        return checkedOutput(status, console: console)
    }

    /// Output that never reached stdout fails the command: `export > list.csv` on a full disk must not exit 0 with a
    /// cut-off list. A reader that went away (`| head`) is not a failure; it asked for no more.
    private static func checkedOutput(_ status: ExitCode, console: Console) -> ExitCode {
        console.out.flush()
        // 74 already: the command said why (watch --json stops on this very error).
        guard let error = console.out.writeError, error != EPIPE, status != .ioError else { return status }
        console.warn("cannot write to standard output: \(String(cString: strerror(error)))")
        return status == .success ? .ioError : status
    }

    private static func dispatch(_ argv: [String], environment: [String: String], console: Console) -> ExitCode {
        var argv = argv
        // `prospects --store X list`, as the overview's STORE line reads, means `prospects list --store X` (the
        // last one given wins, as after the command); a command that needs no store (decode, encode) ignores it.
        var globalStore: String?
        while let option = argv.first, option == "--store" || option.hasPrefix("--store=") {
            if option == "--store" {
                guard argv.count >= 2 else {
                    console.warn("option '--store' needs a value. See 'prospects --help'.")
                    return .usage
                }
                globalStore = argv[1]
                argv.removeFirst(2)
            } else {
                globalStore = String(option.dropFirst("--store=".count))
                argv.removeFirst()
            }
        }
        if let globalStore, let name = argv.first, let command = subcommand(named: name),
            command.options.contains("--store")
        {
            argv.insert(contentsOf: ["--store", globalStore], at: 1)
        }
        guard let first = argv.first else {
            // `prospects --store list`: the command was taken for the store's location.
            if let globalStore, subcommand(named: globalStore) != nil {
                console.warn(
                    "option '--store' took '\(globalStore)' as its value, and no command is left. "
                        + "See 'prospects --help'."
                )
                return .usage
            }
            console.err.line(overview)
            return .usage
        }
        switch first {
        case "-h", "--help":
            console.out.line(overview)
            return .success
        case "--version":
            console.out.line("prospects \(version)")
            return .success
        case "help":
            guard argv.count > 1 else {
                console.out.line(overview)
                return .success
            }
            if argv[1] == "--man" {
                console.out.line(ManPage.render())
                return .success
            }
            guard let command = subcommand(named: argv[1]) else {
                console.warn("unknown command '\(SafeText.escaped(argv[1]))'. See 'prospects --help'.")
                return .usage
            }
            console.out.line(helpText(command))
            return .success
        default:
            break
        }
        guard let command = subcommand(named: first) else {
            console.warn("unknown command '\(SafeText.escaped(first))'. See 'prospects --help'.")
            return .usage
        }
        let rest = Array(argv.dropFirst())
        if rest.contains("-h") || rest.contains("--help") {
            console.out.line(helpText(command))
            return .success
        }
        let context = CommandContext(console: console, environment: environment)
        do {
            let arguments = try CommandLineArguments(
                rest, flags: command.flags, options: command.options, dashWords: command.takesDashWords)
            return try command.init(arguments).run(context)
        } catch let error as UsageError {
            console.warn("\(error.message). See 'prospects help \(command.name)'.")
            return .usage
        } catch let error as StoreError {
            // A daemon waits a busy store out; a command says what the person can do.
            if case .busy = error { console.warn(error.message + "; try again") } else { console.warn(error.message) }
            switch error {
            case .invalidLocation: return .usage
            case .unavailable, .schemaTooNew, .unsupportedDatabase: return .unavailable
            case .busy: return .tryAgain
            case .permissionDenied: return .noPermission
            case .storageFailed: return .ioError
            case .database, .corrupt: return .software
            }
        } catch let error as OutputFileError {
            console.warn(error.message)
            switch error {
            case .cannotCreate: return .cannotCreate
            case .cannotWrite: return .ioError
            }
        } catch let error as CommandFailure {
            console.warn(error.message)
            return error.status
        } catch {
            console.warn("internal error: \(error)")
            return .software
        }
    }

    static func subcommand(named name: String) -> (any Subcommand.Type)? {
        subcommands.first { $0.name == name }
    }

    static func helpText(_ command: any Subcommand.Type) -> String {
        "OVERVIEW: \(command.abstract)\n\n\(command.help)"
    }

    /// What the program does, in one sentence: the overview's first line and the manual's NAME.
    static let summary = "Turn pictures of contact QR codes into one clean, deduplicated list of prospects."
    static let usage = "prospects <subcommand> [options]"
    static let options = """
          -h, --help              show help
          --version               show the version
        """
    /// Where the store is, for every command that uses one.
    static let store = "--store <path|postgres://…>, else $PROSPECTS_STORE, else ./prospects.sqlite"

    static var overview: String {
        let width = subcommands.map { $0.name.count }.max() ?? 0
        let list = subcommands.map {
            "  \($0.name)\(String(repeating: " ", count: width - $0.name.count + 4))\($0.abstract)"
        }
        let statuses = ExitCode.allCases.map {
            "  \(String($0.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0))\($0.summary)"
        }
        return """
            OVERVIEW: \(summary)

            USAGE: \(usage)

            OPTIONS:
            \(options)

            SUBCOMMANDS:
            \(list.joined(separator: "\n"))

            STORE: \(store)

            EXIT STATUS:
            \(statuses.joined(separator: "\n"))

              See 'prospects help <subcommand>' for detailed help, 'prospects help --man' for the manual page.
            """
    }
}

/// A command that could not do its job for a reason that is not a usage or store error, with the status to exit with.
struct CommandFailure: Error {
    var message: String
    var status: ExitCode
}
