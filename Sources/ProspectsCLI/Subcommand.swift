import Foundation
import ProspectStore
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

    init(_ arguments: CommandLineArguments) throws(UsageError)
    func run(_ context: CommandContext) throws -> ExitCode
}

extension Subcommand {
    static var optionValues: [String: [String]] { [:] }
}

/// What every command may use: the streams, the environment.
final class CommandContext {
    let console: Console
    let environment: [String: String]

    init(console: Console, environment: [String: String]) {
        self.console = console
        self.environment = environment
    }

    /// The application layer on the store named by `--store`, else `PROSPECTS_STORE`, else `./prospects.sqlite`.
    func service(_ arguments: CommandLineArguments, lockWait: Duration = StoreLocation.defaultLockWait)
        -> ProspectsService
    {
        ProspectsService(storeOption: arguments.value("--store"), environment: environment, lockWait: lockWait)
    }

    /// A store of its own, opened now, for `watch` (which opens one again after losing the connection).
    func openStore(
        _ arguments: CommandLineArguments, create: Bool = false, lockWait: Duration = StoreLocation.defaultLockWait
    ) throws(StoreError) -> any ProspectStore {
        try service(arguments, lockWait: lockWait).openStore(create: create)
    }
}

/// The help text of the `--store` option, shared by every command that uses the store.
let storeOptionHelp = """
      --store <location>      SQLite file path or postgres:// URL (default: $PROSPECTS_STORE, else ./prospects.sqlite)
    """
