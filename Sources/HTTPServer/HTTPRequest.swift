/// A request as a handler sees it: decoded, its body read, its form parsed and its files on disk.
public struct HTTPRequest: Sendable, Equatable {
    /// The method as sent (`GET`, `POST`…).
    public var method: String
    /// The path without the query, percent-decoded by libmicrohttpd (so `%2F` is `/`: check it before any file use).
    public var path: String
    /// The query's items, decoded (`+` and `%20` are spaces), in order; a name may repeat.
    public var query: [HTTPField]
    public var headers: HTTPHeaders
    /// The cookies of the `Cookie` header, in order.
    public var cookies: [HTTPField]
    /// The client's numeric IP address, without the port.
    public var remoteAddress: String
    /// The body of a request that is not a form, up to the server's `maximumBodySize`; empty for forms.
    public var body: [UInt8]
    /// The parsed form of a urlencoded or multipart request; empty otherwise.
    public var form: HTTPForm

    public init(
        method: String, path: String, query: [HTTPField] = [], headers: HTTPHeaders = [:],
        cookies: [HTTPField] = [], remoteAddress: String = "127.0.0.1", body: [UInt8] = [],
        form: HTTPForm = HTTPForm()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.remoteAddress = remoteAddress
        self.body = body
        self.form = form
    }

    /// The first value of the query item `name`, or nil.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The value of the cookie `name`, or nil.
    public func cookie(_ name: String) -> String? {
        cookies.first { $0.name == name }?.value
    }
}
