import Foundation
import ProspectsTestSupport
import Testing

/// The built binary's manual page and completion scripts, used the way a shell and `man` use them.
@Suite struct ManualAndCompletionCommandsTests {
    /// Runs `script` in bash with the built binary first on PATH.
    func bash(_ script: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        let folder = ProspectsProcess.executable.deletingLastPathComponent().path
        process.environment = ["PATH": "\(folder):/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": NSTemporaryDirectory()]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func bashLoadsTheCompletionAndCompletesCommands() throws {
        let result = try bash(
            "source <(prospects completions bash) && complete -p prospects && "
                + "COMP_WORDS=(prospects im) COMP_CWORD=1 && _prospects; echo \"${COMPREPLY[*]}\"")
        #expect(result.status == 0)
        #expect(result.output == "complete -o bashdefault -o default -F _prospects prospects\nimport\n")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")))
    func theManualRendersWithoutAWarning() throws {
        let result = try bash("set -o pipefail; prospects help --man | groff -man -Tutf8 -ww 2>&1 >/dev/null")
        #expect(result.status == 0)
        #expect(result.output.isEmpty, "\(result.output)")
        let page = try bash("prospects help --man | groff -man -Tutf8 -P-c | col -b")
        #expect(page.output.contains("Turn pictures of contact QR codes"))
        #expect(page.output.contains("--from-line"))
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let result = try ProspectsProcess.run(["completions", "tcsh"])
        #expect(result.status == 64 && result.output.isEmpty)
        #expect(
            result.stderr
                == "prospects: unknown shell 'tcsh': give bash, zsh or fish. See 'prospects help completions'.\n")
    }
}
