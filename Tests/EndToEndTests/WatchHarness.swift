import Foundation
import Glibc
import ProspectsTestSupport

/// A `prospects watch` child process for tests: started with pipes, read line by line while it runs, stopped by
/// a real signal (SIGTERM, or SIGKILL for the crash tests).
final class WatchProcess: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var stdoutLines: [String] = []
    private var stderrText = ""
    private var openStreams = 2

    /// With a `launcher` (e.g. `setpriv` to drop root), runs `launcher… prospects watch …`. With `stdout` (e.g.
    /// `/dev/full`, or a pipe nobody reads), the watcher writes there instead, and `lines` stays empty.
    init(
        inbox: String, store: String, arguments: [String] = [], environment: [String: String] = [:],
        launcher: [String] = [], stdout: FileHandle? = nil
    ) throws {
        let watch = ["watch", "--json", "--store", store] + arguments + [inbox]
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [ProspectsProcess.executable.path] + watch
        } else {
            process.executableURL = ProspectsProcess.executable
            process.arguments = watch
        }
        var env = ProcessInfo.processInfo.environment
        env["PROSPECTS_STORE"] = nil
        env["NOTIFY_SOCKET"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = stdout ?? out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if stdout == nil {
            read(out.fileHandleForReading) { [self] text in
                stdoutLines += text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
            }
        } else {
            openStreams = 1
        }
        read(err.fileHandleForReading) { [self] text in stderrText += text }
    }

    var pid: pid_t { process.processIdentifier }

    /// Lines written on stdout so far.
    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return stdoutLines
    }

    var stderr: String {
        condition.lock()
        defer { condition.unlock() }
        return stderrText
    }

    /// The JSON objects of stdout so far.
    var records: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits until stdout has `count` lines (true) or `timeout` passes (false).
    @discardableResult
    func waitForLines(_ count: Int, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while stdoutLines.count < count {
            if !condition.wait(until: deadline) { return stdoutLines.count >= count }
        }
        return true
    }

    /// Waits until stderr contains `text`.
    @discardableResult
    func waitForStderr(_ text: String, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !stderrText.contains(text) {
            if !condition.wait(until: deadline) { return stderrText.contains(text) }
        }
        return true
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// The pids of this process's children (its decoder workers), found through `/proc/<pid>/stat`.
    var children: [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let child = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // "pid (comm) state ppid …": the name may hold spaces and parentheses, so fields count from the last ")".
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
        }
    }

    /// Sends SIGTERM and waits for the exit; returns the status and how long it took.
    func terminate(timeout: TimeInterval = 10) -> (status: Int32, seconds: TimeInterval) {
        let started = Date()
        signal(SIGTERM)
        return (waitForExit(timeout: timeout), Date().timeIntervalSince(started))
    }

    /// Waits for the process and for both of its streams to end.
    func waitForExit(timeout: TimeInterval = 10) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return -1
        }
        condition.lock()
        while openStreams > 0 && condition.wait(until: Date().addingTimeInterval(5)) {}
        condition.unlock()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func read(_ handle: FileHandle, append: @escaping @Sendable (String) -> Void) {
        let condition = condition
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending += chunk
                // Hand over whole lines only, so a record is never split between two reads.
                guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
                let complete = pending[...lastNewline]
                pending = Data(pending[(lastNewline + 1)...])
                condition.lock()
                append(String(decoding: complete, as: UTF8.self))
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            if !pending.isEmpty { append(String(decoding: pending, as: UTF8.self)) }
            openStreams -= 1
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// An inbox in a temporary folder, a store beside it, and helpers to drop files the ways real writers do.
final class WatchSandbox: Sendable {
    let folder: TemporaryDirectory
    let inbox: String
    let store: String

    init() throws {
        folder = try TemporaryDirectory(prefix: "prospects-watch")
        inbox = folder.file("inbox")
        store = folder.file("prospects.sqlite")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
    }

    var archive: String { inbox + "/archive" }
    var rejected: String { inbox + "/rejected" }

    func start(
        _ arguments: [String] = [], environment: [String: String] = [:], launcher: [String] = [],
        stdout: FileHandle? = nil
    ) throws -> WatchProcess {
        try WatchProcess(
            inbox: inbox, store: store, arguments: arguments, environment: environment, launcher: launcher,
            stdout: stdout)
    }

    /// Writes `bytes` to `INBOX/name` in one go (open, write, close: one IN_CLOSE_WRITE).
    func drop(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: inbox + "/" + name))
    }

    /// Writes `INBOX/name.part`, then renames it to `INBOX/name` (the Maildir hand-off).
    func dropByRename(_ name: String, _ bytes: [UInt8]) throws {
        let part = inbox + "/" + name + ".part"
        try Data(bytes).write(to: URL(fileURLWithPath: part))
        guard rename(part, inbox + "/" + name) == 0 else { throw POSIXError(.EIO) }
    }

    /// Names in a folder, hidden ones included, sorted.
    func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// Files (not folders) still in the inbox, hidden ones aside: every such name is input.
    var waiting: [String] {
        names(in: inbox).filter { name in
            var info = stat()
            return !name.hasPrefix(".") && lstat(inbox + "/" + name, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR
        }
    }

    /// Files still claimed by some watcher (entries inside `.processing/<owner>/`, hidden ones aside).
    var claimed: [String] {
        let root = inbox + "/.processing"
        return names(in: root).flatMap { owner in
            names(in: root + "/" + owner).filter { !$0.hasPrefix(".") }.map { owner + "/" + $0 }
        }
    }

    /// Image files (not reason files) in a folder.
    func images(in folder: String) -> [String] {
        names(in: folder).filter { !$0.hasSuffix(".reason.json") }
    }

    /// The store's rows: email → the scan count of each row with that email (exactly one row when all is well).
    func prospects() throws -> [String: [Int]] {
        let result = try ProspectsProcess.run(["list", "--json", "--store", store])
        var rows: [String: [Int]] = [:]
        for line in result.lines {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let email = object["email"] as? String
            else { continue }
            rows[email, default: []].append((object["scanCount"] as? Int) ?? 0)
        }
        return rows
    }

    /// The decoded JSON of a reason file.
    func reason(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: rejected + "/" + name + ".reason.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Waits until `condition` holds, checking every 20 ms, for at most `timeout` seconds.
    @discardableResult
    func wait(timeout: TimeInterval = 10, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(20_000)
        }
        return try condition()
    }
}
