import HTTPServer

/// Why `prospects serve` cannot start.
public enum WebServerError: Error, Sendable, Equatable {
    /// The address is not loopback, and there are no accounts yet to sign in with: anyone on the network could
    /// read and change the list.
    case accountsRequired(host: String)
    /// The HTTP server could not listen (address in use, no such interface…).
    case cannotListen(HTTPServerError)

    public var message: String {
        switch self {
        case .accountsRequired(let host):
            "refusing to serve on \(host): an address other than loopback (127.0.0.1, ::1) needs accounts to sign "
                + "in with, and prospects serve has none yet; use --host 127.0.0.1 and an SSH tunnel or a reverse proxy"
        case .cannotListen(let error):
            error.description
        }
    }
}
