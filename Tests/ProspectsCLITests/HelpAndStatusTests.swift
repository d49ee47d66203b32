import ProspectsCore
import Testing

@testable import ProspectsCLI

/// Help text, version and the exit statuses of command lines that never reach a store.
@Suite struct HelpAndStatusTests {
    static let commandNames = ProspectsCommand.subcommands.map { $0.name }

    @Test func theOverviewListsEveryCommandAndStatus() {
        let run = CommandRun(["--help"])
        #expect(run.status == .success && run.err.isEmpty)
        #expect(run.out == ProspectsCommand.overview + "\n")
        for command in ProspectsCommand.subcommands {
            #expect(run.out.contains("\n  \(command.name)  "), "\(command.name) missing from the overview")
            #expect(run.out.contains(command.abstract))
        }
        for status in ExitCode.allCases {
            #expect(run.out.contains("  \(status.rawValue)"))
            #expect(run.out.contains(status.summary))
        }
    }

    @Test(arguments: commandNames)
    func everyWayToAskForHelpPrintsTheSameText(_ name: String) throws {
        let command = try #require(ProspectsCommand.subcommand(named: name))
        let expected = "OVERVIEW: \(command.abstract)\n\n\(command.help)\n"
        for argv in [[name, "--help"], [name, "-h"], ["help", name], [name, "--json", "--help"]] {
            let run = CommandRun(argv)
            #expect(run.status == .success, "\(argv)")
            #expect(run.out == expected, "\(argv)")
            #expect(run.err.isEmpty)
        }
    }

    /// Every option a command accepts is in its help, so that the manual page and completions offer it too; the
    /// one exception is the watcher's own child mode.
    @Test(arguments: commandNames)
    func everyAcceptedOptionIsDocumented(_ name: String) throws {
        let command = try #require(ProspectsCommand.subcommand(named: name))
        for option in command.flags.union(command.options) where option != "--decoder-worker" {
            #expect(command.help.contains(option), "\(name): \(option) is accepted but not in the help")
        }
        #expect(command.help.hasPrefix("USAGE: prospects \(name)"))
        #expect(command.abstract.hasSuffix(".") && !command.abstract.contains("\n"))
    }

    @Test func theVersionIsOneLine() {
        let run = CommandRun(["--version"])
        #expect(run.status == .success && run.out == "prospects \(ProspectsCommand.version)\n")
    }

    @Test func noCommandShowsTheOverviewOnStderrAsAUsageError() {
        let run = CommandRun([])
        #expect(run.status == .usage && run.out.isEmpty)
        #expect(run.err == ProspectsCommand.overview + "\n")
    }

    @Test func usageErrorsNameTheProblemAndWhereHelpIs() {
        let cases: [([String], String)] = [
            (["frobnicate"], "prospects: unknown command 'frobnicate'. See 'prospects --help'.\n"),
            (["help", "frobnicate"], "prospects: unknown command 'frobnicate'. See 'prospects --help'.\n"),
            (["list", "--bogus"], "prospects: unknown option '--bogus'. See 'prospects help list'.\n"),
            (["list", "extra"], "prospects: list takes no arguments. See 'prospects help list'.\n"),
            (["show"], "prospects: show needs exactly one email address, id or search. See 'prospects help show'.\n"),
            (
                ["mark", "ada@example.org"],
                "prospects: give exactly one of --contacted or --uncontacted. See 'prospects help mark'.\n"
            ),
            (
                ["import", "x.txt"],
                "prospects: import needs --format csv|json|vcard (a vCard file is recognised by its content). See 'prospects help import'.\n"
            ),
            (
                ["export", "--format", "xml"],
                "prospects: '--format' must be one of: csv, json, vcard (got 'xml'). See 'prospects help export'.\n"
            ),
            (["remind", "--in", "soon", "a@b.c"], "--in': expected a duration up to a century"),
            (["--store"], "prospects: option '--store' needs a value. See 'prospects --help'.\n"),
            (["completions", "tcsh"], "prospects: unknown shell 'tcsh': give bash, zsh or fish."),
            (
                [
                    "encode", "--name", "Ada", "--email", "ada@example.org", "--phone", "1", "--format", "lines", "-o",
                    "x",
                ],
                "--phone and --organization need --format mecard or vcard"
            ),
        ]
        for (argv, message) in cases {
            let run = CommandRun(argv)
            #expect(run.status == .usage, "\(argv)")
            #expect(run.out.isEmpty, "\(argv)")
            #expect(run.err.contains(message), "\(argv): \(run.err)")
        }
    }

    @Test func aStoreLocationThatIsNoneIsAUsageError() {
        let run = CommandRun(["list", "--store", "mysql://host/db"])
        #expect(run.status == .usage)
        #expect(run.err.hasPrefix("prospects: invalid store location: 'mysql://…' is not a store location"))
    }

    @Test func theStoreBeforeTheCommandNamesTheCommandsStore() {
        let run = CommandRun(["--store", "list"])
        #expect(run.status == .usage)
        #expect(run.err.contains("option '--store' took 'list' as its value, and no command is left"))
    }

    @Test func aStatusAfterAFileKeepsTheWorstCase() {
        #expect(ExitCode.success.after(file: nil, rejected: false) == .success)
        #expect(ExitCode.success.after(file: nil, rejected: true) == .dataError)
        #expect(ExitCode.noInput.after(file: nil, rejected: true) == .noInput)
        #expect(ExitCode.success.after(file: .unreadableFile(reason: "gone"), rejected: true) == .noInput)
    }
}
