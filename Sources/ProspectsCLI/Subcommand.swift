import Foundation
import ProspectsCore
import ProspectsService

/// One `prospects` subcommand: its help, the options it accepts, and how it runs.
protocol Subcommand: SendableMetatype {
    static var name: String { get }
    /// One sentence, shown in the command list.
    static var abstract: String { get }
    /// The `USAGE`, `ARGUMENTS` and `OPTIONS` sections of its help.
    static var help: String { get }
    static var flags: Set<String> { get }
    static var options: Set<String> { get }
    /// The words an option accepts, for shell completion (`--filter`: everyone, contacted, uncontacted).
    static var optionValues: [String: [String]] { get }
    /// True when a word after one dash is an argument (`tag EMAIL -word`), not an option.
    static var takesDashWords: Bool { get }

    init(_ arguments: CommandLineArguments) throws(UsageError)
    func run(_ context: CommandContext) throws -> ExitCode
}

extension Subcommand {
    static var optionValues: [String: [String]] { [:] }
    static var takesDashWords: Bool { false }
}

/// What every command may use: the streams, the environment.
final class CommandContext {
    let console: Console
    let environment: [String: String]

    init(console: Console, environment: [String: String]) {
        self.console = console
        self.environment = environment
    }

    /// Who is at the keyboard: `--by` when given, else the login name (`LOGNAME`, `USER`, else the password
    /// database's name for this user).
    func collector(_ arguments: CommandLineArguments) -> String {
        arguments.value("--by") ?? ProspectsService.loginName(environment: environment)
    }

    /// `--event` and `--by` (else the login name) of `ingest`, `import` and `watch`, checked as a card's fields are.
    func collectionContext(_ arguments: CommandLineArguments) throws(UsageError) -> CollectionContext {
        func checked(_ text: String?, _ option: String) throws(UsageError) -> String? {
            guard let text else { return nil }
            switch FreeText.line(text, field: option) {
            case .success(let value): return value
            case .failure(let error): throw UsageError("invalid value for '\(option)': \(error.message)")
            }
        }
        return CollectionContext(
            event: try checked(arguments.value("--event"), "--event"),
            collectedBy: try checked(collector(arguments), "--by"))
    }

    /// The application layer on the store named by `--store`, else `PROSPECTS_STORE`, else `./prospects.sqlite`.
    func service(_ arguments: CommandLineArguments, lockWait: Duration = StoreLocation.defaultLockWait)
        -> ProspectsService
    {
        let service = ProspectsService(
            storeOption: arguments.value("--store"), environment: environment, lockWait: lockWait)
        let console = console
        service.migrated = { migration in console.warn(SafeText.escaped(migration.message)) }
        return service
    }
}

/// The help text of `--event` and `--by`, shared by the commands that load cards.
let collectionOptionHelp = """
      --event <event>         the event the cards were collected at, kept with each scan ("KubeCon EU 2026");
                              a name given for the first time becomes an event ('prospects event')
      --by <name>             who collected them, kept with each scan and as the author of a card's own note
                              (default: the login name)
    """

/// The help text of the `--store` option, shared by every command that uses the store.
let storeOptionHelp = """
      --store <location>      SQLite file path or postgres:// URL (default: $PROSPECTS_STORE, else ./prospects.sqlite)
    """
