import Foundation

/// A bounded queue from one producer thread to one consumer thread, so that reading runs ahead of writing by at
/// most `capacity` items and memory stays flat however long the input is.
///
/// The producer ends with `finish(_:)`, passing the error that stopped it, if any; a consumer that gives up calls
/// `cancel()`, after which `send` returns false at once, and then `waitUntilFinished()` so that no thread
/// outlives the run.
final class HandOff<Element: Sendable, Failure: Error>: @unchecked Sendable {
    private let capacity: Int
    private let condition = NSCondition()
    // All fields below are guarded by `condition`.
    private var items: [Element] = []
    private var finished = false
    private var cancelled = false
    private var failure: Failure?

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Waits for room, then queues `element`. False when the consumer has cancelled: the producer should stop.
    func send(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled { condition.wait() }
        if cancelled { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// The producer is done; `failure` is what stopped it early, if anything.
    func finish(_ failure: Failure?) {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        self.failure = failure
        condition.broadcast()
    }

    /// The next element in order, waiting for it; `.failure` or nil once the producer has finished and
    /// everything it sent has been received.
    func receive() -> Result<Element, Failure>? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !finished { condition.wait() }
        return take()
    }

    /// What `receive(before:)` found.
    enum Reception {
        /// What `receive()` would have returned.
        case received(Result<Element, Failure>?)
        case timedOut
    }

    /// As `receive()`, but waits until `deadline` at most: `.timedOut` then.
    func receive(before deadline: Date) -> Reception {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !finished {
            guard condition.wait(until: deadline) else { return .timedOut }
        }
        return .received(take())
    }

    /// The next element if one is queued, without waiting; its `.failure` once the producer has finished with one
    /// and everything it sent has been received. Nil when nothing is ready yet, or ever.
    func receiveIfReady() -> Result<Element, Failure>? {
        condition.lock()
        defer { condition.unlock() }
        return take()
    }

    /// The next element, the failure, or nil; called with the lock held.
    private func take() -> Result<Element, Failure>? {
        if !items.isEmpty {
            condition.broadcast()
            return .success(items.removeFirst())
        }
        if finished, let failure {
            self.failure = nil
            return .failure(failure)
        }
        return nil
    }

    /// The consumer stops: a waiting or later `send` returns false, and queued elements are dropped.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        items.removeAll()
        condition.broadcast()
    }

    /// Waits until the producer has called `finish`.
    func waitUntilFinished() {
        condition.lock()
        defer { condition.unlock() }
        while !finished { condition.wait() }
    }
}
