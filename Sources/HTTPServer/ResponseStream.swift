import CMicroHTTPD
import Glibc
import SystemCalls

/// A response body written over time, as Server-Sent Events are: a writer on any thread appends bytes, the server
/// sends them, and the connection sleeps (suspended, using no thread) while there is nothing to send.
///
/// A class because the writer and the server share it; one stream serves one response.
public final class ResponseStream: Sendable {
    private struct State: ~Copyable {
        var pending: [UInt8] = []
        var sent = 0
        var finished = false
        /// The writer failed: the connection is closed without the body's regular end, so the client sees the
        /// response cut short rather than complete.
        var failed = false
        /// Set once the server has let go of the response: the client left, or the response was sent.
        var closed = false
        var connection: Connection?
        var suspended = false
    }

    /// A libmicrohttpd connection, only touched under the lock.
    struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let state = Locked(State())

    public init() {}

    /// False once the client has gone or the stream was finished: the writer can stop.
    public var isOpen: Bool {
        state.withLock { !$0.closed && !$0.finished }
    }

    /// Appends `bytes` to what will be sent; false (and nothing sent) once the stream is no longer open.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard !state.closed, !state.finished else { return false }
            state.pending.append(contentsOf: bytes)
            Self.wake(&state)
            return true
        }
    }

    /// As `write`, first waiting while more than `limit` bytes are still unsent, so that a writer faster than its
    /// client (a large download) holds about `limit` bytes rather than the whole body; false once the stream is no
    /// longer open (the client left: the writer can stop).
    @discardableResult
    public func write(_ bytes: [UInt8], holdingAtMost limit: Int) -> Bool {
        state.wait(until: { $0.closed || $0.finished || $0.pending.count - $0.sent <= limit }) { state in
            guard !state.closed, !state.finished else { return false }
            state.pending.append(contentsOf: bytes)
            Self.wake(&state)
            return true
        }
    }

    /// Ends the response as failed: what was written is sent, and then the connection is closed without the regular
    /// end of the body, so that the client knows it did not get all of it.
    public func fail() {
        state.withLock { state in
            state.failed = true
            state.finished = true
            Self.wake(&state)
        }
    }

    /// Sends one Server-Sent Event: an optional `event:` name and `id:`, and `data` (one `data:` line per line).
    @discardableResult
    public func send(event: String? = nil, id: String? = nil, data: String) -> Bool {
        var text = ""
        if let event { text += "event: \(Self.singleLine(event))\n" }
        if let id { text += "id: \(Self.singleLine(id))\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line.filter { $0 != "\r" })\n"
        }
        return write(Array((text + "\n").utf8))
    }

    /// Sends a Server-Sent Events comment, which clients ignore: a periodic one lets the writer learn that a client
    /// has gone (a sleeping connection notices only when it next sends; the write after that returns false).
    @discardableResult
    public func sendHeartbeat() -> Bool {
        write(Array(":\n\n".utf8))
    }

    /// Ends the response once what was written has been sent.
    public func finish() {
        state.withLock { state in
            state.finished = true
            Self.wake(&state)
        }
    }

    private static func singleLine(_ text: String) -> String {
        String(text.filter { $0 != "\n" && $0 != "\r" })
    }

    private static func wake(_ state: inout State) {
        if state.suspended, let connection = state.connection {
            state.suspended = false
            MHD_resume_connection(connection.pointer)
        }
    }

    /// Called by the server when it queues the response on `connection`.
    func attach(to connection: OpaquePointer) {
        state.withLock { $0.connection = Connection(pointer: connection) }
    }

    /// Fills `buffer` with up to `capacity` pending bytes. With nothing to send it suspends the connection until
    /// the next write (returning 0); once finished and drained it returns libmicrohttpd's end of stream.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        state.withLock { state in
            let available = state.pending.count - state.sent
            if available > 0 {
                let count = min(available, capacity)
                state.pending.withUnsafeBytes { bytes in
                    UnsafeMutableRawPointer(buffer).copyMemory(
                        from: bytes.baseAddress! + state.sent, byteCount: count)
                }
                state.sent += count
                if state.sent == state.pending.count {
                    state.pending.removeAll(keepingCapacity: true)
                    state.sent = 0
                } else if state.sent >= 1 << 16 {
                    // A writer that keeps ahead never lets the buffer drain: drop what was sent.
                    state.pending.removeFirst(state.sent)
                    state.sent = 0
                }
                return count
            }
            if state.failed { return prospects_mhd_content_reader_end_with_error() }
            if state.finished || state.closed { return prospects_mhd_content_reader_end_of_stream() }
            if let connection = state.connection {
                state.suspended = true
                MHD_suspend_connection(connection.pointer)
            }
            return 0
        }
    }

    /// Called by the server when libmicrohttpd frees the response: nothing more can be sent.
    func close() {
        state.withLock { state in
            state.closed = true
            state.connection = nil
            state.suspended = false
        }
    }
}
