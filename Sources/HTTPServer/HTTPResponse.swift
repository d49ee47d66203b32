/// What a handler answers: a status, header fields and a body.
public struct HTTPResponse: Sendable {
    /// Where the body's bytes come from.
    public enum Body: Sendable {
        /// Bytes held in memory.
        case bytes([UInt8])
        /// A file's contents, read by the server as it sends (answered 500 when the file cannot be opened).
        case file(path: String)
        /// Bytes written over time by whoever holds the stream (Server-Sent Events); sent chunked.
        case stream(ResponseStream)
    }

    public var status: Int
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: Int = 200, headers: HTTPHeaders = [:], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with `text` as its body, by default plain UTF-8 text.
    public static func text(
        _ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8"
    ) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .bytes(Array(text.utf8)))
    }

    /// A `303 See Other` to `location`, the answer to a form posted successfully.
    public static func redirect(to location: String, status: Int = 303) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Location": location])
    }

    /// A `text/event-stream` response whose events are written to `stream` (see `ResponseStream.send`).
    public static func eventStream(_ stream: ResponseStream) -> HTTPResponse {
        HTTPResponse(
            headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store"], body: .stream(stream))
    }
}
