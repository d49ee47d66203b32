import Foundation

/// Runs the built `prospects` executable the way a user would, capturing stdout, stderr and the exit status.
public struct ProspectsProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        public var output: String { String(decoding: stdout, as: UTF8.self) }
        /// stdout split into lines, without the final empty one.
        public var lines: [String] {
            output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// The `prospects` binary beside the test bundle (both live in SwiftPM's products folder), or `$PROSPECTS_BINARY`.
    public static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["PROSPECTS_BINARY"] { return URL(fileURLWithPath: path) }
        var folder = Bundle.main.bundleURL
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        let candidate = folder.appendingPathComponent("prospects")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        let fromArgv = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        return fromArgv.appendingPathComponent("prospects")
    }

    /// The repository's `SampleImages/` folder.
    public static func sampleImages(filePath: String = #filePath) -> URL {
        var url = URL(fileURLWithPath: filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("SampleImages")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("manifest.jsonl").path) {
                return candidate
            }
        }
        fatalError("SampleImages/ not found above \(filePath)")
    }

    /// Runs `prospects arguments…`; `environment` entries are added to (or, with nil, removed from) the test's own.
    ///
    /// With a `launcher` (a command and its arguments), runs `launcher… prospects arguments…` instead: e.g.
    /// `setpriv` to drop root, or `/usr/bin/time` to measure the child.
    public static func run(
        _ arguments: [String], environment: [String: String?] = [:], stdin: Data? = nil, currentDirectory: URL? = nil,
        launcher: [String] = []
    ) throws -> Result {
        let process = Process()
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["PROSPECTS_STORE"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes while the child runs, so a full pipe never blocks it.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }
}
