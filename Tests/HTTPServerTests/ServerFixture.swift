import Foundation
import HTTPServer
import WebTestSupport

/// A fresh upload folder for one test, removed when released.
final class UploadFolder: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("http-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }
}

/// A configuration on 127.0.0.1, port 0, uploads into `folder`, two threads.
func testConfiguration(uploadsIn folder: UploadFolder? = nil) -> HTTPServerConfiguration {
    var configuration = HTTPServerConfiguration()
    configuration.threadCount = 2
    if let folder { configuration.uploadDirectory = folder.path }
    return configuration
}

/// Runs a command and returns its exit status and standard output.
@discardableResult
func run(_ command: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
