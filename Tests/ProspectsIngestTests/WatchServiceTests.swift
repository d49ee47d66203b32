import Foundation
import Glibc
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import QRDecoding
import Testing

@testable import ProspectsIngest

/// The watcher's shell run in this process, for what needs options the command line does not offer (a short
/// `lostEventSettle`, a decoder that crashes on cue): real inotify, real decoder processes, a real SQLite file.
/// Serialized: each run installs the process's SIGINT / SIGTERM handlers.
@Suite(.serialized) struct WatchServiceTests {
    static func contact(_ number: Int) -> [UInt8] {
        PNGFixtures.contactCode("Person \(number)\nperson\(number)@example.com", moduleSize: 3)
    }

    /// Decodes in the real worker (`prospects watch --decoder-worker`) behind a Python relay that aborts, as a
    /// crashing libpng or zbar would, on any request naming a file with `poison` in its name.
    static let crashingRelay = """
        import os, signal, subprocess, sys
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        worker = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        def frame(stream):
            def exactly(count):
                data = b""
                while len(data) < count:
                    chunk = stream.read(count - len(data))
                    if not chunk:
                        sys.exit(0)
                    data += chunk
                return data
            header = exactly(4)
            return header + exactly(int.from_bytes(header, "little"))
        while True:
            request = frame(sys.stdin.buffer)
            if b"poison" in request:
                os.abort()
            worker.stdin.write(request)
            worker.stdin.flush()
            sys.stdout.buffer.write(frame(worker.stdout))
            sys.stdout.buffer.flush()
        """

    @Test func aDecoderCrashQuarantinesTheFileAndTheWatcherLivesOn() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: PythonScript.interpreter), "needs \(PythonScript.interpreter)")
        let watch = try InProcessWatch(stopAfter: 4) { options in
            options.decoderExecutable = PythonScript.interpreter
            options.decoderArguments = ["python3", "-c", Self.crashingRelay] + InProcessWatch.worker
        }
        try watch.drop("poison.png", Self.contact(1))
        #expect(watch.waitForFiles(1))
        try watch.drop("good.png", Self.contact(2))
        #expect(watch.waitForFiles(2))
        try watch.drop("poison-again.png", Self.contact(3))
        try watch.drop("good-again.png", Self.contact(4))
        #expect(watch.waitForFiles(4), "\(watch.files.map(\.name)) \(watch.log)")
        try watch.finish()

        let outcomes = Dictionary(
            uniqueKeysWithValues: watch.files.compactMap { file in file.result.map { (file.name, $0) } })
        #expect(outcomes["poison.png"]?.file.rejection?.kind == "decoderCrashed")
        #expect(outcomes["poison-again.png"]?.file.rejection?.kind == "decoderCrashed")
        #expect(outcomes["good.png"]?.outcome == .inserted)
        #expect(outcomes["good-again.png"]?.outcome == .inserted)
        let reason = try Data(contentsOf: URL(fileURLWithPath: watch.inbox + "/rejected/poison.png.reason.json"))
        #expect(String(decoding: reason, as: UTF8.self).contains("\"decoderCrashed\""))
        #expect(watch.log.contains("the decoder crashed on poison.png"))
        #expect(watch.log.contains("the decoder crashed on poison-again.png"))
        #expect(try watch.emails() == ["person2@example.com", "person4@example.com"])
    }

    /// Events lost in a real overflow of the kernel's queue (the loop held up inside a report while thousands of
    /// events arrive): a rescan finds the files whose events were lost; a file its writer still holds open across
    /// the overflow waits for its close, said once in the log after `lostEventSettle`, and is taken at its close.
    @Test func aKernelQueueOverflowLeadsToARescanAndAHeldFileWaitsForItsClose() throws {
        let watch = try InProcessWatch(stopAfter: 7) { options in
            options.lostEventSettle = .seconds(1)
        }
        let held = open(watch.inbox + "/held.png", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        let card = Self.contact(9)
        #expect(card.prefix(100).withUnsafeBytes { write(held, $0.baseAddress, $0.count) } == 100)
        // The loop reads held.png's creation before this file's close, and stops inside its report.
        watch.holdNextReport()
        try watch.drop("first.png", Self.contact(0))
        #expect(watch.waitForFiles(1))
        let limit =
            (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16_384
        for name in [".filler-a", ".filler-b"] { try watch.drop(name, Array("filler".utf8)) }
        // Every open-for-write and close of a filler is one IN_CLOSE_WRITE; two files in turn, so none merge.
        for number in 0..<(limit + 500) {
            close(open(watch.inbox + (number % 2 == 0 ? "/.filler-a" : "/.filler-b"), O_WRONLY | O_CLOEXEC))
        }
        for number in 1...5 { try watch.drop("late\(number).png", Self.contact(number)) }
        watch.release()
        #expect(watch.waitForFiles(6, timeout: 20))
        #expect(watch.waitForLog("held.png: unchanged for 1.0 seconds and still open for writing"))
        #expect(watch.files.count == 6, "not taken while its writer holds it")
        let rest = Array(card.dropFirst(100))
        #expect(rest.withUnsafeBytes { write(held, $0.baseAddress, $0.count) } == rest.count)
        close(held)
        #expect(watch.waitForFiles(7))
        try watch.finish()
        #expect(watch.log.contains("the kernel's event queue overflowed; rescanning the inbox"))
        #expect(watch.files.allSatisfy { $0.result?.outcome == .inserted })
        #expect(Set(watch.files.map(\.name)) == Set(["first.png", "held.png"] + (1...5).map { "late\($0).png" }))
    }
}

/// A `WatchService` on a temporary inbox with a SQLite store beside it, run on a thread of its own. It stops itself
/// after `stopAfter` files; a test that gives up removes the inbox, which ends the run too.
final class InProcessWatch: @unchecked Sendable {
    /// The real decoder worker: this package's `prospects` binary in its hidden mode.
    static var worker: [String] {
        [
            ProspectsProcess.executable.path, "watch", "--decoder-worker", "--pixel-limit",
            String(PNGReader.defaultPixelLimit),
        ]
    }

    let folder: TemporaryDirectory
    let inbox: String
    let store: String
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var reported: [WatchedFile] = []
    private var logged = ""
    private var ready = false
    private var ended: Result<Void, any Error>?
    private var holding = false
    private var held = false

    init(stopAfter: Int, configure: (inout WatchService.Options) -> Void = { _ in }) throws {
        folder = try TemporaryDirectory(prefix: "prospects-watch-service")
        inbox = folder.file("inbox")
        store = folder.file("prospects.sqlite")
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        var options = WatchService.Options(
            inbox: inbox, workers: 2, pixelLimit: PNGReader.defaultPixelLimit,
            decoderExecutable: Self.worker[0], decoderArguments: ["prospects"] + Self.worker.dropFirst())
        configure(&options)
        let settings = options
        let store = store
        Thread.detachNewThread { [self] in
            let result = Result<Void, any Error> {
                let service = try WatchService(
                    options: settings, openStore: { try SQLiteStore(path: store) },
                    notifier: SystemdNotifier(environment: [:]),
                    log: { [self] line in update { logged += line + "\n" } })
                update { ready = true }
                try service.run { [self] file in
                    update { reported.append(file) }
                    condition.lock()
                    if holding {
                        holding = false
                        held = true
                        condition.broadcast()
                        while held { condition.wait() }
                    }
                    let count = reported.count
                    condition.unlock()
                    if count >= stopAfter { service.stop() }
                }
            }
            // The handlers the run installed would swallow a later SIGINT / SIGTERM meant to end the test process.
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            update {
                ready = true
                ended = result
            }
        }
        condition.lock()
        defer { condition.unlock() }
        while !ready { condition.wait() }
        if case .failure(let error) = ended { throw error }
    }

    var files: [WatchedFile] { update { reported } }
    var log: String { update { logged } }

    /// Writes `INBOX/name` in one go. Close-on-exec: a decoder started meanwhile by this very process must not keep
    /// the file open for writing (its close would not be announced until that decoder ends).
    func drop(_ name: String, _ bytes: [UInt8]) throws {
        let fd = open(inbox + "/" + name, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        guard write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    /// The next report blocks the loop (as a stopped process would be) until `release`.
    func holdNextReport() { update { holding = true } }

    func release() {
        update {
            held = false
            holding = false
        }
    }

    @discardableResult
    func waitForFiles(_ count: Int, timeout: TimeInterval = 10) -> Bool {
        wait(timeout: timeout) { reported.count >= count }
    }

    @discardableResult
    func waitForLog(_ text: String, timeout: TimeInterval = 10) -> Bool {
        wait(timeout: timeout) { logged.contains(text) }
    }

    /// Waits for the run to end (it stops itself after `stopAfter` files); if it does not, removes the inbox to end
    /// it and fails. Rethrows what the run threw.
    func finish(timeout: TimeInterval = 10) throws {
        release()
        if !wait(timeout: timeout, until: { ended != nil }) {
            try? FileManager.default.removeItem(atPath: inbox)
            wait(timeout: 10) { ended != nil }
            Issue.record("the watcher did not stop by itself")
        }
        try update { ended }?.get()
    }

    /// The emails in the store, sorted.
    func emails() throws -> [String] {
        try SQLiteStore(path: store, create: false).list(filter: .everyone, sort: .name, reverse: false)
            .map(\.prospect.email).sorted()
    }

    private func update<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    @discardableResult
    private func wait(timeout: TimeInterval, until done: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done() {
            if !condition.wait(until: deadline) { return done() }
        }
        return true
    }

    deinit { folder.cleanup() }
}
