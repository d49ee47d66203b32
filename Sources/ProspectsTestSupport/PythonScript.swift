import Foundation

/// Runs a short Python program, for tests that check our output against an independent parser (vobject, csv).
public enum PythonScript {
    /// Why Python could not run the script; its description is the whole message, install hint included.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Debian's own Python, where `apt-get install python3-vobject` puts the module: a `python3` found first on
    /// PATH (pyenv, a virtualenv) would not see it, and Debian 12 refuses `pip install` into its Python.
    public static let interpreter = "/usr/bin/python3"

    /// `/usr/bin/python3 -c source argument`, returning stdout. A missing interpreter or module throws a `Failure`
    /// saying so, so a machine without them fails the test instead of passing it unnoticed.
    public static func run(_ source: String, _ argument: String) throws -> Data {
        guard FileManager.default.isExecutableFile(atPath: interpreter) else {
            throw Failure(description: "\(interpreter) is missing: run Scripts/install-dependencies --test")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: interpreter)
        process.arguments = ["-c", source, argument]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Drain stderr on another thread, so that a chatty failure cannot block the child on a full pipe.
        nonisolated(unsafe) var stderr = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { stderr = errors.fileHandleForReading.readDataToEndOfFile() }
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0:
            return stdout
        default:
            let message = String(decoding: stderr, as: UTF8.self)
            throw Failure(description: "python3 failed (status \(process.terminationStatus)): \(message)")
        }
    }
}
