import CMicroHTTPD
import Synchronization

/// A response body written over time, as Server-Sent Events are: a writer on any thread appends bytes, the server
/// sends them, and the connection sleeps (suspended, using no thread) while there is nothing to send.
///
/// A class because the writer and the server share it; one stream serves one response.
public final class ResponseStream: Sendable {
    private struct State: ~Copyable {
        var pending: [UInt8] = []
        var sent = 0
        var finished = false
        /// Set once the server has let go of the response: the client left, or the response was sent.
        var closed = false
        var connection: Connection?
        var suspended = false
    }

    /// A libmicrohttpd connection, only touched under the lock.
    struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let state = Mutex(State())

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
                }
                return count
            }
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
