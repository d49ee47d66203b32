/// Why driving the browser failed.
public enum WebDriverError: Error, CustomStringConvertible {
    /// chromedriver could not be started.
    case spawnFailed(path: String, errno: Int32)
    /// chromedriver did not say it was ready.
    case notReady(port: UInt16)
    /// The HTTP exchange with chromedriver failed.
    case transport(RawHTTPError)
    /// chromedriver answered a command with a W3C error.
    case command(method: String, path: String, status: Int, error: String, message: String)
    /// chromedriver's answer was not the JSON expected.
    case malformedReply(path: String, body: String)
    /// What a test waited for in the page did not happen in time.
    case timedOut(waitingFor: String, seconds: Int)

    public var description: String {
        switch self {
        case .spawnFailed(let path, let errno): "cannot start \(path) (errno \(errno))"
        case .notReady(let port): "chromedriver on port \(port) never said it was ready"
        case .transport(let error): "chromedriver: \(error)"
        case .command(let method, let path, let status, let error, let message):
            "chromedriver \(method) \(path) answered \(status) \(error): \(message)"
        case .malformedReply(let path, let body): "chromedriver \(path) answered unexpected JSON: \(body.prefix(300))"
        case .timedOut(let what, let seconds): "waited \(seconds) seconds for \(what)"
        }
    }
}
