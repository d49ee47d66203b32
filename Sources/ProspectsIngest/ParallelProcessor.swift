import Foundation
import QRDecoding

/// Processes many files on every core and hands the outcomes back in input order, one at a time.
///
/// Each worker thread owns its `FileProcessor` (zbar objects are not shared). Workers run at most `window` files
/// ahead of the consumer, so memory stays flat however many files there are, and the consumer (printing,
/// loading into the store) overlaps with decoding instead of waiting for a whole batch.
public final class ParallelProcessor {
    public struct Job: Sendable, Hashable {
        public var path: String
        public var followSymlinks: Bool

        public init(path: String, followSymlinks: Bool) {
            self.path = path
            self.followSymlinks = followSymlinks
        }
    }

    public let workers: Int
    private let options: FileProcessor.Options

    /// `workers` defaults to the number of active cores.
    public init(workers: Int? = nil, options: FileProcessor.Options = .init()) {
        self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
        self.options = options
    }

    /// Runs `jobs`, calling `consume` on the calling thread with each outcome in input order.
    /// If `consume` throws, workers stop taking new files and the error is rethrown after they finish.
    public func run(_ jobs: [Job], consume: (FileOutcome) throws -> Void) rethrows {
        if jobs.isEmpty { return }
        let processors = (0..<workers).map { _ in FileProcessor(options: options) }
        // zbar calls iconv_open on first use; doing that once here keeps the lazy init out of the threads.
        QRScanner.warmUp()
        if workers == 1 || jobs.count == 1 {
            for job in jobs { try consume(processors[0].process(path: job.path, followSymlinks: job.followSymlinks)) }
            return
        }

        let queue = WorkQueue(jobs: jobs, window: max(64, workers * 16), workers: workers)
        let threads = processors.map { processor in
            let owned = Owned(processor)
            let thread = Thread { queue.work(with: owned.value) }
            thread.stackSize = 4 << 20
            return thread
        }
        threads.forEach { $0.start() }
        defer { queue.finish() }
        for index in jobs.indices {
            try consume(queue.take(index))
        }
    }
}

/// Hands a non-Sendable value to exactly one other thread, which becomes its only user.
private final class Owned<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The shared state of one parallel run: the next job to start, finished outcomes, and the window bound.
private final class WorkQueue: @unchecked Sendable {
    private let jobs: [ParallelProcessor.Job]
    private let window: Int
    private let condition = NSCondition()
    // All fields below are guarded by `condition`.
    private var nextToStart = 0
    private var nextToTake = 0
    private var finished: [Int: FileOutcome] = [:]
    private var stopped = false
    private var running: Int

    init(jobs: [ParallelProcessor.Job], window: Int, workers: Int) {
        self.jobs = jobs
        self.window = window
        self.running = workers
    }

    func work(with processor: FileProcessor) {
        while true {
            condition.lock()
            while !stopped && nextToStart < jobs.count && nextToStart >= nextToTake + window {
                condition.wait()
            }
            if stopped || nextToStart >= jobs.count {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let index = nextToStart
            nextToStart += 1
            condition.unlock()

            let job = jobs[index]
            let outcome = processor.process(path: job.path, followSymlinks: job.followSymlinks)

            condition.lock()
            finished[index] = outcome
            condition.broadcast()
            condition.unlock()
        }
    }

    func take(_ index: Int) -> FileOutcome {
        condition.lock()
        defer { condition.unlock() }
        while finished[index] == nil { condition.wait() }
        nextToTake = index + 1
        condition.broadcast()
        return finished.removeValue(forKey: index)!
    }

    /// Stops the workers and waits until none is running, so no thread outlives the run.
    func finish() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}
