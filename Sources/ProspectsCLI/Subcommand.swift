import Foundation
import ProspectStore

/// One `prospects` subcommand: its help, the options it accepts, and how it runs.
protocol Subcommand: SendableMetatype {
    static var name: String { get }
    /// One sentence, shown in the command list.
    static var abstract: String { get }
    /// The `USAGE`, `ARGUMENTS` and `OPTIONS` sections of its help.
    static var help: String { get }
    static var flags: Set<String> { get }
    static var options: Set<String> { get }

    init(_ arguments: CommandLineArguments) throws(UsageError)
    func run(_ context: CommandContext) throws -> ExitCode
}

/// What every command may use: the streams, the environment, the clock.
final class CommandContext {
    let console: Console
    let environment: [String: String]

    init(console: Console, environment: [String: String]) {
        self.console = console
        self.environment = environment
    }

    /// Opens the store named by `--store`, else `PROSPECTS_STORE`, else `./prospects.sqlite`. Only the commands
    /// that load prospects (`ingest`, `import`, `watch`) create a missing SQLite file: for the others, a missing
    /// file is a mistyped path, and an empty new store would hide it.
    func openStore(
        _ arguments: CommandLineArguments, create: Bool = false, lockWait: Duration = StoreLocation.defaultLockWait
    ) throws(StoreError) -> any ProspectStore {
        try StoreLocation.resolve(option: arguments.value("--store"), environment: environment)
            .open(create: create, lockWait: lockWait)
    }
}

/// The help text of the `--store` option, shared by every command that uses the store.
let storeOptionHelp = """
      --store <location>      SQLite file path or postgres:// URL (default: $PROSPECTS_STORE, else ./prospects.sqlite)
    """
