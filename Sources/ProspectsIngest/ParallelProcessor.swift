import Foundation
import QRDecoding

/// Processes many files on every core and hands the outcomes back in input order.
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
        var next = 0
        var ready: [FileOutcome] = []
        while next < jobs.count {
            // Every outcome that is ready in order, under one lock; consumed outside it.
            queue.take(from: next, into: &ready)
            next += ready.count
            for outcome in ready { try consume(outcome) }
            ready.removeAll(keepingCapacity: true)
        }
    }
}

/// The shared state of one parallel run: the next job to start, finished outcomes, and the window bound.
///
/// One mutex, two conditions: the consumer sleeps on `outcomeReady` and is woken only by the worker that finishes
/// the outcome it waits for; workers sleep on `windowOpen` only when they are `window` files ahead. A plain
/// broadcast per file cost about three context switches per file on small images (all three threads woken).
///
/// The consumer takes outcomes a batch at a time: once the next one is there, it waits (at most `batchWait`) for
/// the rest of its batch. Woken for every file, it preempted a worker on every file when the workers kept every
/// core busy, and two workers spent half as much CPU again as one.
private final class WorkQueue: @unchecked Sendable {
    private let jobs: [ParallelProcessor.Job]
    private let window: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let outcomeReady = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let windowOpen = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // All fields below are guarded by `mutex`.
    private var nextToStart = 0
    private var nextToTake = 0
    /// Finished outcomes by `index % window`; at most `window` files are between taken and started.
    private var slots: [FileOutcome?]
    private var consumerWaiting = false
    /// The outcome whose worker wakes the consumer.
    private var waitingFor = 0
    private var workersWaiting = 0
    private var stopped = false
    private var running: Int

    init(jobs: [ParallelProcessor.Job], window: Int, workers: Int) {
        self.jobs = jobs
        self.window = window
        self.running = workers
        self.slots = Array(repeating: nil, count: window)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(outcomeReady, nil)
        pthread_cond_init(windowOpen, nil)
    }

    deinit {
        pthread_cond_destroy(windowOpen)
        pthread_cond_destroy(outcomeReady)
        pthread_mutex_destroy(mutex)
        windowOpen.deallocate()
        outcomeReady.deallocate()
        mutex.deallocate()
    }

    func work(with processor: FileProcessor) {
        pthread_mutex_lock(mutex)
        while true {
            while !stopped && nextToStart < jobs.count && nextToStart >= nextToTake + window {
                workersWaiting += 1
                pthread_cond_wait(windowOpen, mutex)
                workersWaiting -= 1
            }
            if stopped || nextToStart >= jobs.count {
                running -= 1
                // finish() waits on the same condition for the last worker to leave.
                pthread_cond_broadcast(outcomeReady)
                pthread_mutex_unlock(mutex)
                return
            }
            let index = nextToStart
            nextToStart += 1
            pthread_mutex_unlock(mutex)

            let job = jobs[index]
            let outcome = processor.process(path: job.path, followSymlinks: job.followSymlinks)

            pthread_mutex_lock(mutex)
            slots[index % window] = outcome
            if consumerWaiting && index == waitingFor { pthread_cond_signal(outcomeReady) }
        }
    }

    /// Outcomes the consumer waits for together, and how long it waits for the rest of them once the first is in.
    static let batch = 16
    static let batchWait = Duration.milliseconds(2)

    /// Waits for outcome `index` and, briefly, for the rest of its batch; then moves it and every following outcome
    /// already finished into `ready`.
    func take(from index: Int, into ready: inout [FileOutcome]) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let last = min(index + min(Self.batch, window), jobs.count) - 1
        var deadline: timespec?
        while true {
            var missing = index
            while missing <= last, slots[missing % window] != nil { missing += 1 }
            if missing > last { break }
            // Woken by the batch's last outcome, or by the first missing one once the last is in.
            waitingFor = missing == index || slots[last % window] != nil ? missing : last
            consumerWaiting = true
            defer { consumerWaiting = false }
            if missing == index {
                pthread_cond_wait(outcomeReady, mutex)
                continue
            }
            // The next outcome is in: wait a little for the rest of the batch, then take what is there.
            if deadline == nil { deadline = Self.after(Self.batchWait) }
            guard var until = deadline, pthread_cond_timedwait(outcomeReady, mutex, &until) != ETIMEDOUT else {
                break
            }
        }
        var next = index
        while next < nextToStart, let outcome = slots[next % window] {
            ready.append(outcome)
            slots[next % window] = nil
            next += 1
        }
        nextToTake = next
        if workersWaiting > 0 { pthread_cond_broadcast(windowOpen) }
    }

    /// The CLOCK_REALTIME time `duration` from now, as `pthread_cond_timedwait` takes it.
    private static func after(_ duration: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int(now.tv_nsec) + Int(duration.components.attoseconds / 1_000_000_000)
        return timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }

    /// Stops the workers and waits until none is running, so no thread outlives the run.
    func finish() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_cond_broadcast(windowOpen)
        while running > 0 {
            consumerWaiting = true
            pthread_cond_wait(outcomeReady, mutex)
        }
        consumerWaiting = false
        pthread_mutex_unlock(mutex)
    }
}
