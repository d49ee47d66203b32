import Foundation

@testable import ProspectsCLI

/// One command line run by a function call, with stdout and stderr kept in memory: no process is started.
struct CommandRun {
    var status: ExitCode
    var out: String
    var err: String

    /// `answers`: what a person at a terminal types when asked, in turn; nil: no terminal.
    init(_ argv: [String], environment: [String: String] = [:], answers: [String]? = nil) {
        let console = Console.capturing(answers: answers)
        status = ProspectsCommand.run(argv, environment: environment, console: console)
        out = console.out.text
        err = console.err.text
    }

    /// stdout's lines, without the empty one after the last line end.
    var lines: [String] { out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}
