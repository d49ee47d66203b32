import Glibc

/// A value shared between threads under a pthread mutex, with a condition a thread can wait on for the value to
/// change. The project's one lock: ThreadSanitizer sees pthread locks, and does not see the futex under
/// `Synchronization.Mutex` on Linux, so every access under a `Mutex` looked like a race to it.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: consuming Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    /// Runs `body` with the value locked, then wakes the threads waiting in `wait(until:then:)` to look again.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Waits until `ready` holds for the value, then runs `body` with it, all under the lock.
    public func wait<Result, Failure: Error>(
        until ready: (borrowing Value) -> Bool, then body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
        }
        while !ready(value) { pthread_cond_wait(changed, mutex) }
        return try body(&value)
    }
}
