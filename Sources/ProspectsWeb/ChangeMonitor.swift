import Foundation
import HTTPServer
import ProspectsService
import Synchronization
import SystemCalls

/// Tells every open event stream when the list changed: by this server's own forms, or by another process writing
/// the same store (`prospects ingest`, `watch`, another `serve`), which it learns by polling the store's change
/// generation once a second (one row, on SQLite and PostgreSQL alike), the one the page cache is keyed by.
final class ChangeMonitor: Sendable {
    private let streams = Locked<[ResponseStream]>([])
    private let changedHere = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    /// The generation the last `change` event named; `Int64.min` before the first.
    private let latest = Atomic<Int64>(.min)

    /// Adds a stream that receives `change` events until its client leaves. A page rendered at `shown`, older than
    /// the last change told, hears of it at once: it may have been served while that change's render was still
    /// running, and loaded after the event that tells the render is done.
    func add(_ stream: ResponseStream, shown: String? = nil) {
        // The first bytes make the browser's EventSource open at once, and tell the client to retry after 2 s.
        stream.write(Array("retry: 2000\n\n".utf8))
        let told = latest.load(ordering: .acquiring)
        if let shown, told != .min, shown != String(told) { _ = stream.send(event: "change", data: String(told)) }
        streams.withLock { $0.append(stream) }
    }

    /// A form of this server changed the store: streams hear of it at the next poll.
    func noteChange() {
        changedHere.store(true, ordering: .releasing)
    }

    /// Ends the polling thread at its next tick.
    func stop() {
        stopped.store(true, ordering: .releasing)
    }

    /// Starts the polling thread, which reads `generation`.
    func start(interval: Duration, generation: StoreGeneration) {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        // A comment every 15 s or so: a stream whose client left is noticed and dropped, and proxies keep it open.
        let heartbeatEvery = max(1, Int((15 / max(seconds, 0.05)).rounded()))
        // Read before the thread starts, so that a write made once `start` returns is always one it sees move.
        let first = generation.current()
        let thread = Thread { [self] in
            var last = first
            var ticks = 0
            while !stopped.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: seconds)
                ticks += 1
                // A poll that fails (the store busy a moment) says nothing changed; the next one will tell.
                let counter = generation.current()
                let moved = counter != nil && counter != last
                if counter != nil { last = counter }
                let changed = changedHere.exchange(false, ordering: .acquiring) || moved
                if changed {
                    if let counter { latest.store(counter, ordering: .releasing) }
                    // The generation now: a page rendered at it already shows this change (see live.js).
                    let data = counter.map(String.init) ?? "list"
                    broadcast { $0.send(event: "change", data: data) }
                } else if ticks % heartbeatEvery == 0 {
                    broadcast { $0.sendHeartbeat() }
                }
            }
        }
        thread.name = "prospects-change-monitor"
        thread.start()
    }

    /// Writes to every stream, forgetting those whose client has gone.
    private func broadcast(_ write: (ResponseStream) -> Bool) {
        let open = streams.withLock { $0 }
        var closed: Set<ObjectIdentifier> = []
        for stream in open where !write(stream) { closed.insert(ObjectIdentifier(stream)) }
        if !closed.isEmpty { streams.withLock { $0.removeAll { closed.contains(ObjectIdentifier($0)) } } }
    }
}
