/// A response as `RawHTTPClient` read it.
public struct RawHTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    /// The first value of the header `name`, in any case.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Why a raw HTTP exchange failed.
public enum RawHTTPError: Error, Equatable, CustomStringConvertible {
    case socket(String, Int32)
    case closed
    case timedOut
    case malformed(String)

    public var description: String {
        switch self {
        case .socket(let call, let code): "\(call) failed with errno \(code)"
        case .closed: "the server closed the connection before the response was complete"
        case .timedOut: "no answer from the server in time"
        case .malformed(let line): "malformed response line: \(line)"
        }
    }
}
