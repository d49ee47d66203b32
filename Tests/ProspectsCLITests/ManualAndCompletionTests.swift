import Foundation
import ProspectsTestSupport
import Testing

@testable import ProspectsCLI

/// The manual page and the completion scripts, made from the help tables: each says what the help says.
@Suite struct ManualAndCompletionTests {
    /// The man page's text with roff's escapes for `-` and `\` undone, to search for what the help says.
    var manual: String { ManPage.render().replacingOccurrences(of: "\\-", with: "-") }

    @Test func theManualHasEveryCommandAndOption() {
        let manual = manual
        #expect(manual.hasPrefix(".TH PROSPECTS 1 "))
        for command in ProspectsCommand.subcommands {
            #expect(
                manual.contains(".SS \(command.name)\n\(command.abstract)"))
            for option in ShellCompletion.documentedOptions(command) {
                #expect(manual.contains(option), "\(command.name) \(option)")
            }
        }
        for status in ExitCode.allCases { #expect(manual.contains(".B \(status.rawValue)\n")) }
    }

    @Test func helpManPrintsTheManual() {
        let run = CommandRun(["help", "--man"])
        #expect(run.status == .success && run.out == ManPage.render() + "\n")
    }

    @Test func roffIsEscaped() {
        #expect(ManPage.escaped(".hidden") == "\\&.hidden")
        #expect(ManPage.escaped("'quoted") == "\\&'quoted")
        #expect(ManPage.escaped("a\\b --c") == "a\\eb \\-\\-c")
        #expect(ManPage.escaped("…→") == "\\[u2026]\\[u2192]")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")))
    func groffRendersTheManualWithoutAWarning() throws {
        let folder = try TemporaryDirectory()
        let page = folder.file("prospects.1")
        try Data(ManPage.render().utf8).write(to: URL(fileURLWithPath: page))
        let result = try shell("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", page])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func bashCompletesCommandsOptionsAndValues() throws {
        let folder = try TemporaryDirectory()
        let script = folder.file("prospects.bash")
        try Data(ShellCompletion.script(for: .bash).utf8).write(to: URL(fileURLWithPath: script))
        func complete(_ words: [String]) throws -> String {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try shell(
                "/bin/bash",
                [
                    "-c",
                    "source \(script) && COMP_WORDS=(prospects \(quoted)) && COMP_CWORD=\(words.count); _prospects; "
                        + "echo \"${COMPREPLY[*]}\"",
                ])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.trimmingCharacters(in: .newlines)
        }
        let registered = try shell("/bin/bash", ["-c", "source \(script) && complete -p prospects"])
        #expect(registered.stdout == "complete -o bashdefault -o default -F _prospects prospects\n")
        #expect(try complete(["li"]) == "list")
        #expect(try complete(["d"]) == "decode delete due")
        #expect(try complete(["--store", "x.sqlite", "ma"]) == "mark")
        #expect(try complete(["list", "--filter", ""]) == "everyone contacted uncontacted")
        #expect(try complete(["export", "--format", "v"]) == "vcard")
        #expect(try complete(["mark", "--c"]) == "--contacted")
        #expect(try complete(["completions", ""]) == "bash zsh fish")
        #expect(try complete(["help", "im"]) == "import")
        #expect(try complete(["watch", "--dec"]).isEmpty, "the decoder worker's mode is not offered")
        #expect(try complete(["list", "--store", ""]).isEmpty, "a store path completes as a file")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")))
    func zshReadsItsScript() throws {
        let folder = try TemporaryDirectory()
        let script = folder.file("_prospects")
        try Data(ShellCompletion.script(for: .zsh).utf8).write(to: URL(fileURLWithPath: script))
        let result = try shell("/usr/bin/zsh", ["-n", script])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")))
    func fishCompletesFromItsScript() throws {
        let folder = try TemporaryDirectory()
        let script = folder.file("prospects.fish")
        try Data(ShellCompletion.script(for: .fish).utf8).write(to: URL(fileURLWithPath: script))
        #expect(try shell("/usr/bin/fish", ["-n", script]).status == 0)
        let result = try shell("/usr/bin/fish", ["-c", "source \(script); complete -C'prospects list --sort '"])
        #expect(result.stdout == "name\nrecent\n", "\(result.stderr)")
    }

    /// Runs a program (a shell, groff) and returns its status and output.
    func shell(_ program: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "LANG": "C.UTF-8"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }
}
