import Foundation

/// Releases all `count` threads at once, when the last one arrives: "the same instant" for concurrency tests.
final class ThreadBarrier: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int

    init(count: Int) {
        waiting = count
    }

    func wait() {
        condition.lock()
        defer { condition.unlock() }
        waiting -= 1
        if waiting == 0 {
            condition.broadcast()
        } else {
            while waiting > 0 { condition.wait() }
        }
    }
}

/// A list several threads append to.
final class LockedList<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.withLock { storage.append(element) }
    }

    var items: [Element] {
        lock.withLock { storage }
    }
}

/// Runs `body` on `count` new threads, each with its index and a barrier for all of them, and waits until every
/// one has returned; the result lists what each thread threw.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (_ index: Int, _ start: ThreadBarrier) throws -> Void)
    -> [String]
{
    let start = ThreadBarrier(count: count)
    let errors = LockedList<String>()
    let finished = DispatchGroup()
    for index in 0..<count {
        finished.enter()
        let thread = Thread {
            defer { finished.leave() }
            do {
                try body(index, start)
            } catch {
                errors.append("thread \(index): \(error)")
            }
        }
        thread.start()
    }
    finished.wait()
    return errors.items
}
