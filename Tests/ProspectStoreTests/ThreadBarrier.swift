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
