import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A fixed pool of threads that run the handler for requests that may write (every method but GET and HEAD), so
/// that a commit waiting on the disk holds up only other writes, never the connections sharing a polling thread.
///
/// A class because it owns its threads, from `init` until `close()` has joined them.
final class WriterThreads: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var closed = false
    }

    private struct ThreadHandle: @unchecked Sendable {
        let thread: pthread_t
    }

    private let state = Locked(State())
    private let threads = Locked<[ThreadHandle]>([])

    /// Starts `count` threads (none when `count` is 0: `run` then always declines).
    init(count: Int) {
        for _ in 0..<count {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            guard pthread_create(&thread, nil, writerThreadMain, context) == 0 else {
                Unmanaged<WriterThreads>.fromOpaque(context).release()
                continue
            }
            threads.withLock { $0.append(ThreadHandle(thread: thread)) }
        }
    }

    /// Queues `job` for the next free thread, calling `accepted` first (under the queue's lock, before any thread can
    /// start it); false, calling neither, when there are no threads or they are closed: the caller runs it itself.
    func run(_ job: @escaping @Sendable () -> Void, accepted: () -> Void) -> Bool {
        guard threads.withLock({ !$0.isEmpty }) else { return false }
        return state.withLock { state in
            guard !state.closed else { return false }
            accepted()
            state.jobs.append(job)
            return true
        }
    }

    /// Declines new jobs, waits for the queued and running ones to end, and joins the threads. Later calls do nothing.
    func close() {
        state.withLock { $0.closed = true }
        let joining = threads.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for handle in joining {
            pthread_join(handle.thread, nil)
        }
    }

    /// The loop of one thread: the next job, until the pool is closed and its queue empty.
    fileprivate func work() {
        while true {
            let job: (@Sendable () -> Void)? = state.wait(until: { !$0.jobs.isEmpty || $0.closed }) { state in
                guard !state.jobs.isEmpty else { return nil }
                return state.jobs.removeFirst()
            }
            guard let job else { return }
            job()
        }
    }
}

private func writerThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let pool = Unmanaged<WriterThreads>.fromOpaque(context!).takeRetainedValue()
    pool.work()
    return nil
}
