import Glibc
import ProspectsCore
import QRDecoding
import SystemCalls

/// Runs decoding in worker processes and keeps them running, so a crash in libpng or zbar costs one file, not the
/// watcher.
///
/// Each worker decodes one file at a time. When a worker dies with a file in hand (EOF on its stdout), or is killed
/// for taking too long (the watcher's core decides when), a fresh worker takes the slot. The watch loop polls
/// `descriptors` and hands the readable ones to `collect`, so waiting for a decoder never blocks the loop. A class
/// because it owns the child processes.
final class DecoderSupervisor {
    /// A claimed file on its way through a decoder.
    struct Job: Sendable {
        var claim: FileClaim
        var contentHash: String
    }

    /// A job's decoding result, or why there is none.
    struct Finished: Sendable {
        enum Ending: Sendable {
            case reply(Result<[QRSymbol], ScanError>)
            /// The worker died with the file in hand.
            case died(String)
        }

        var job: Job
        var ending: Ending
    }

    private final class Slot {
        var process: ChildProcess
        var job: Job?
        var reply: [UInt8] = []
        init(process: ChildProcess) { self.process = process }
    }

    private let executable: String
    private let arguments: [String]
    private var slots: [Slot] = []
    /// How many workers died or were killed; for the log and for tests.
    private(set) var restarts = 0

    /// Starts `count` workers running `executable arguments…`.
    init(executable: String, arguments: [String], count: Int) throws(WatchError) {
        self.executable = executable
        self.arguments = arguments
        for _ in 0..<max(1, count) { slots.append(Slot(process: try spawn())) }
    }

    var hasIdleWorker: Bool { slots.contains { $0.job == nil } }
    var busyCount: Int { slots.count(where: { $0.job != nil }) }

    /// The stdout descriptors of busy workers: readable when a reply (or the end of a dead worker) is there.
    var descriptors: [Int32] { slots.filter { $0.job != nil }.map(\.process.output) }

    /// Gives `png` to an idle worker. Returns a finished crash result only if no worker could even take it.
    func submit(_ job: Job, png: [UInt8]) throws(WatchError) -> Finished? {
        guard let slot = slots.first(where: { $0.job == nil }) else {
            preconditionFailure("submit needs an idle worker")
        }
        let request = DecoderMessage.request(name: job.claim.name, png: png)
        // An idle worker may have died since its last reply; a fresh one gets a second chance at the request.
        for attempt in 0..<2 {
            do {
                try writeAll(slot.process.input, request, path: "decoder stdin")
                slot.job = job
                slot.reply.removeAll(keepingCapacity: true)
                return nil
            } catch {
                let how = slot.process.exited() ?? "stopped reading its input"
                try replace(slot)
                if attempt == 1 {
                    return Finished(
                        job: job, ending: .reply(.failure(.decoderCrashed(reason: "the decoder process \(how)"))))
                }
            }
        }
        return nil
    }

    /// Reads what the workers behind `readable` descriptors sent; returns the jobs that finished or crashed.
    func collect(readable: Set<Int32>) throws(WatchError) -> [Finished] {
        var finished: [Finished] = []
        for slot in slots where slot.job != nil && readable.contains(slot.process.output) {
            switch read(slot) {
            case .waiting:
                continue
            case .reply(let decoded):
                finished.append(Finished(job: slot.job!, ending: .reply(decoded)))
                slot.job = nil
            case .died(let reason):
                let job = slot.job!
                slot.job = nil
                try replace(slot)
                finished.append(Finished(job: job, ending: .died(reason)))
            }
        }
        return finished
    }

    /// Kills the worker that holds `claim` (it took too long) and starts a fresh one in its slot.
    func kill(_ claim: FileClaim) throws(WatchError) {
        guard let slot = slots.first(where: { $0.job?.claim == claim }) else { return }
        slot.job = nil
        slot.process.signal(SIGKILL)
        try replace(slot)
    }

    /// Ends every worker: idle ones by closing their input, busy ones (a stop that could not wait) by SIGKILL.
    func shutdown() {
        for slot in slots {
            if slot.job != nil { slot.process.signal(SIGKILL) }
            slot.process.closeInput()
        }
        for slot in slots { slot.process.wait() }
        slots.removeAll()
    }

    private enum ReadResult {
        case waiting
        case reply(Result<[QRSymbol], ScanError>)
        case died(String)
    }

    private func read(_ slot: Slot) -> ReadResult {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { Glibc.read(slot.process.output, raw.baseAddress!, raw.count) }
            }
            if count > 0 {
                slot.reply += chunk[..<count]
                continue
            }
            if count < 0 && errno == EAGAIN { break }
            // End of file (or a broken pipe): the worker is gone. Reap it to say how it ended.
            slot.process.closeInput()
            return .died(slot.process.wait())
        }
        guard let length = DecoderMessage.frameLength(slot.reply[...]) else { return .waiting }
        guard length <= DecoderMessage.maxFrame else {
            slot.process.signal(SIGKILL)
            return .died("sent a malformed reply")
        }
        guard slot.reply.count >= 4 + length else { return .waiting }
        guard let decoded = DecoderMessage.parseReply(slot.reply[4..<(4 + length)]),
            slot.reply.count == 4 + length
        else {
            slot.process.signal(SIGKILL)
            return .died("sent a malformed reply")
        }
        slot.reply.removeAll(keepingCapacity: true)
        return .reply(decoded.mapError(ScanError.init))
    }

    private func replace(_ slot: Slot) throws(WatchError) {
        restarts += 1
        slot.process.signal(SIGKILL)
        slot.process.closeInput()
        slot.process.wait()
        slot.process = try spawn()
        slot.reply.removeAll()
    }

    private func spawn() throws(WatchError) -> ChildProcess {
        do {
            return try ChildProcess(executable: executable, arguments: arguments)
        } catch {
            throw .decoderUnavailable(error.message)
        }
    }
}
