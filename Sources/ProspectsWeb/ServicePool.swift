import ProspectsService
import SystemCalls

/// Application layers for the server's worker threads: a `ProspectsService` (and its store connection) belongs to
/// one thread at a time, so each request borrows one and gives it back.
final class ServicePool: Sendable {
    /// A service handed between threads, never used by two at once.
    private struct Entry: @unchecked Sendable {
        let service: ProspectsService
    }

    private let idle = Locked<[Entry]>([])
    private let makeService: @Sendable () -> ProspectsService

    init(makeService: @escaping @Sendable () -> ProspectsService) {
        self.makeService = makeService
    }

    /// Runs `body` with a service no other thread uses meanwhile.
    func withService<T>(_ body: (ProspectsService) throws -> T) rethrows -> T {
        let entry = idle.withLock { $0.popLast() } ?? Entry(service: makeService())
        defer { idle.withLock { $0.append(entry) } }
        return try body(entry.service)
    }
}
