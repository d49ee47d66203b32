import Foundation
import SystemCalls

/// Rendered list pages, so that a page many people look at is read from the store once per change rather than once
/// per request (its three counts and its sort each read every row). A page is stored cut where the session's form
/// token goes, and served with the requester's token put back.
///
/// Each page is kept with the store generation it was read at. When the store moves on, one render per page brings
/// it up to date (single flight): meanwhile everyone else is served the page of the generation before (stale while
/// revalidate), except a session that wrote since, which waits for a page showing its write (read your writes).
/// Those refreshes run on one render thread of their own, so that renders never hold the request threads; a
/// request thread renders only a page nobody has yet, or the one a writer waits for. Bounded by bytes.
final class PageCache: Sendable {
    /// What a cached page depends on besides the store: the list's state, and who looks (the header names the
    /// account, and admins see more).
    struct Key: Hashable, Sendable {
        var state: ListState
        var account: String?
        var isAdmin: Bool
    }

    /// A page's bytes, cut at every place its form token goes.
    struct Page: Sendable {
        let pieces: [[UInt8]]
        let byteCount: Int

        /// Cuts `markup` at each `placeholder`.
        init(markup: String, placeholder: String) {
            var pieces: [[UInt8]] = []
            var rest = Substring(markup)
            while let range = rest.range(of: placeholder) {
                pieces.append(Array(rest[..<range.lowerBound].utf8))
                rest = rest[range.upperBound...]
            }
            pieces.append(Array(rest.utf8))
            self.pieces = pieces
            byteCount = pieces.reduce(0) { $0 + $1.count }
        }

        /// The page with `token` where the placeholder was.
        func bytes(token: String) -> [UInt8] {
            let token = Array(token.utf8)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(byteCount + token.count * (pieces.count - 1))
            for (index, piece) in pieces.enumerated() {
                if index > 0 { bytes.append(contentsOf: token) }
                bytes.append(contentsOf: piece)
            }
            return bytes
        }
    }

    /// Renders a page showing the store at (at least) the generation it is given, which was read before the store.
    typealias Render = @Sendable (_ generation: Int64?) throws -> Page

    /// One render of one key. Its fields are read and written only under the cache's lock.
    private final class Flight: @unchecked Sendable {
        /// The generation read before the render read the store; nil until a queued render starts, or when the
        /// store could not say.
        var generation: Int64?
        var page: Page?
        var isDone = false

        init(generation: Int64?) {
            self.generation = generation
        }
    }

    /// A render waiting for the render thread.
    private struct Job: Sendable {
        let key: Key
        let flight: Flight
        let render: Render
        let current: @Sendable () -> Int64?
    }

    private struct Entry {
        var page: Page
        var generation: Int64
    }

    private struct State: ~Copyable {
        var entries: [Key: Entry] = [:]
        /// Keys in the order they were stored, the first to be dropped when the bytes exceed the capacity.
        var order: [Key] = []
        var byteCount = 0
        /// The render in flight per key: at most one.
        var flights: [Key: Flight] = [:]
        /// Refreshes waiting for the render thread, at most one per key (the key's flight).
        var queue: [Job] = []
        var isRenderThreadRunning = false
        var renderCount = 0
        /// The generation each session's last write left the store at, its page must show at least that.
        var writes: [String: Int64] = [:]
        /// Sessions in `writes` in the order they wrote, the first forgotten past `writerCapacity`.
        var writers: [String] = []
    }

    private let state = Locked(State())
    /// The most bytes of pages kept.
    let capacity: Int
    /// The most sessions whose last write is remembered; one forgotten sees, at worst, the page of the generation
    /// before for as long as one render takes.
    let writerCapacity: Int
    /// Stands in for the form token in a cached page: random per process, so no lead's text can contain it by
    /// design, and as long as a real token so that the cut page is the size it is served at.
    let placeholder = SessionStore.randomToken()
    /// Called after the render thread refreshed a page, so that pages served stale meanwhile learn there is newer.
    private let refreshed: @Sendable () -> Void

    init(capacity: Int = 16 << 20, writerCapacity: Int = 4096, refreshed: @escaping @Sendable () -> Void = {}) {
        self.capacity = capacity
        self.writerCapacity = writerCapacity
        self.refreshed = refreshed
    }

    /// How many renders were started since the cache was made (the measure of single flight).
    var renderCount: Int { state.withLock { $0.renderCount } }

    /// Waits until no render is in flight or queued.
    func waitUntilIdle() {
        state.wait(until: { $0.flights.isEmpty && $0.queue.isEmpty && !$0.isRenderThreadRunning }, then: { _ in })
    }

    /// Notes that `session` wrote and the store was at `generation` after it: its next pages show at least that.
    func noteWrite(by session: String, generation: Int64?) {
        guard let generation else { return }
        state.withLock { state in
            if state.writes.updateValue(generation, forKey: session) == nil {
                state.writers.append(session)
                if state.writers.count > writerCapacity {
                    state.writes[state.writers.removeFirst()] = nil
                }
            }
        }
    }

    /// What a request does next, decided under the lock.
    private enum Step {
        case serve(Page)
        case wait(Flight)
        case render(Flight)
        case refresh(Page, start: Bool)
    }

    /// The page for `key` as `session` should see it: the cached one while the store's generation (`current`) has
    /// not moved; else the one before while the render thread brings it up to date, unless `session` wrote since
    /// it was read; else one rendered now, by this request or by the one already rendering it.
    func page(
        _ key: Key, session: String, current: @escaping @Sendable () -> Int64?, render: @escaping Render
    ) throws -> Page {
        guard let now = current() else { return try render(nil) }
        let required = state.withLock { $0.writes[session] }
        while true {
            let step: Step = state.withLock { state in
                if let entry = state.entries[key] {
                    if entry.generation >= now { return .serve(entry.page) }
                    if entry.generation >= required ?? entry.generation {
                        if state.flights[key] != nil { return .serve(entry.page) }
                        let flight = Flight(generation: nil)
                        state.flights[key] = flight
                        state.queue.append(Job(key: key, flight: flight, render: render, current: current))
                        let start = !state.isRenderThreadRunning
                        state.isRenderThreadRunning = true
                        return .refresh(entry.page, start: start)
                    }
                }
                if let flight = state.flights[key] { return .wait(flight) }
                let flight = Flight(generation: now)
                state.flights[key] = flight
                state.renderCount += 1
                return .render(flight)
            }
            switch step {
            case .serve(let page):
                return page
            case .refresh(let page, let start):
                if start { startRenderThread() }
                return page
            case .render(let flight):
                let page: Page
                do {
                    page = try render(now)
                } catch {
                    finish(flight, key: key, page: nil)
                    throw error
                }
                finish(flight, key: key, page: page)
                return page
            case .wait(let flight):
                let done = state.wait(until: { _ in flight.isDone }) { _ in (flight.page, flight.generation) }
                // A render that failed, or one that began before this session's write, does not do: look again.
                if let page = done.0, let generation = done.1, generation >= required ?? generation { return page }
            }
        }
    }

    /// Ends `flight`: keeps its page (unless a newer one is kept already) and wakes those waiting for it.
    private func finish(_ flight: Flight, key: Key, page: Page?) {
        state.withLock { state in
            flight.page = page
            flight.isDone = true
            if state.flights[key] === flight { state.flights[key] = nil }
            guard let page, let generation = flight.generation, page.byteCount <= capacity / 4 else { return }
            if let old = state.entries[key] {
                guard old.generation < generation else { return }
                state.byteCount -= old.page.byteCount
                state.order.removeAll { $0 == key }
            }
            state.entries[key] = Entry(page: page, generation: generation)
            state.order.append(key)
            state.byteCount += page.byteCount
            while state.byteCount > capacity, !state.order.isEmpty {
                let dropped = state.order.removeFirst()
                if let old = state.entries.removeValue(forKey: dropped) { state.byteCount -= old.page.byteCount }
            }
        }
    }

    /// One thread renders the queued refreshes, one at a time, and ends when the queue is empty.
    private func startRenderThread() {
        let thread = Thread { [self] in
            while let job = nextJob() {
                let generation = job.current()
                state.withLock { state in
                    job.flight.generation = generation
                    state.renderCount += 1
                }
                let page = try? job.render(generation)
                finish(job.flight, key: job.key, page: page)
                refreshed()
            }
        }
        thread.name = "prospects-page-render"
        thread.start()
    }

    /// The next queued refresh; nil (and the render thread marked gone) when there is none.
    private func nextJob() -> Job? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.isRenderThreadRunning = false
                return nil
            }
            return state.queue.removeFirst()
        }
    }
}
