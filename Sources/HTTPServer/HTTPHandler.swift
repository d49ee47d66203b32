/// Answers requests. Called on the server's worker threads, several at once: it must be safe to share.
public protocol HTTPHandler: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
}

/// A handler made of a closure.
public struct HTTPClosureHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.body = body
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        body(request)
    }
}
