import Foundation
import ProspectsTestSupport
import Testing

/// The command line's contract: help, version, usage errors, exit statuses.
@Suite struct CommandLineTests {
    @Test func versionIsOneLine() throws {
        let result = try ProspectsProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output.range(of: #"^prospects \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    @Test(arguments: [
        "decode", "ingest", "list", "show", "mark", "delete", "remind", "due", "export", "import", "encode",
    ])
    func everyCommandHasHelpOnStdout(_ command: String) throws {
        for arguments in [[command, "--help"], [command, "-h"], ["help", command]] {
            let result = try ProspectsProcess.run(arguments)
            #expect(result.status == 0)
            #expect(result.output.hasPrefix("OVERVIEW: "))
            #expect(result.output.contains("USAGE: prospects \(command)"))
        }
    }

    @Test func overviewListsCommandsAndExitStatuses() throws {
        let result = try ProspectsProcess.run(["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("SUBCOMMANDS:") && result.output.contains("EXIT STATUS:"))
        #expect(result.output.contains("65  some input was rejected"))
    }

    @Test func usageErrorsExit64WithAMessageOnStderr() throws {
        for arguments in [[], ["frobnicate"], ["list", "--bogus"], ["decode"], ["list", "--sort", "age"]] {
            let result = try ProspectsProcess.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(!result.stderr.isEmpty)
        }
    }

    @Test func aMissingPathExits66AndTheOtherFilesStillDecode() throws {
        let paul = ProspectsProcess.sampleImages().appendingPathComponent("01-paul-hudson.png").path
        let result = try ProspectsProcess.run(["decode", "/nonexistent/x.png", paul])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/x.png: cannot read the file"))
        #expect(result.output.contains("Paul Hudson"))
    }

    @Test func anUnavailableStoreExits69() throws {
        let result = try ProspectsProcess.run(["list", "--store", "/nonexistent-folder/prospects.sqlite"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("unavailable"))
    }
}
