/// Answers requests. Called on the server's worker threads, several at once: it must be safe to share.
public protocol HTTPHandler: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The answer to a request the server refused itself (a body over a limit, a malformed form), so that it can
    /// carry the handler's headers and be logged; the server closes the connection after it.
    func refused(_ refusal: HTTPRefusal) -> HTTPResponse
}

extension HTTPHandler {
    public func refused(_ refusal: HTTPRefusal) -> HTTPResponse {
        .text(refusal.message + "\n", status: refusal.status)
    }
}

/// A request the server answered without calling the handler's `respond`, and why.
public struct HTTPRefusal: Sendable {
    public var status: Int
    /// What was wrong, in words (`the request body is larger than 3145728 bytes`).
    public var message: String
    public var method: String
    public var path: String
    public var headers: HTTPHeaders
    public var remoteAddress: String

    /// The message of the refusal of plain HTTP sent to an HTTPS port.
    public static let plainHTTPOnTLSPort = "plain HTTP sent to the HTTPS port"

    public init(
        status: Int, message: String, method: String, path: String, headers: HTTPHeaders = [:],
        remoteAddress: String = ""
    ) {
        self.status = status
        self.message = message
        self.method = method
        self.path = path
        self.headers = headers
        self.remoteAddress = remoteAddress
    }
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
