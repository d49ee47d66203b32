import HTTPServer

/// Why `prospects serve` cannot start.
public enum WebServerError: Error, Sendable, Equatable {
    /// The address is not loopback (or sign-in was asked for), and the store has no account to sign in with:
    /// anyone on the network could read and change the list.
    case accountsRequired(host: String)
    /// The HTTP server could not listen (address in use, no such interface…).
    case cannotListen(HTTPServerError)
    /// HTTPS was asked for and cannot be set up (no openssl for `--tls-self-signed`, a folder that cannot be made).
    case tlsUnavailable(String)
    /// The folder that keeps uploads cannot be made or used (the message says which and why).
    case uploadsUnusable(String)

    public var message: String {
        switch self {
        case .accountsRequired(let host):
            "refusing to serve on \(host): an address other than loopback (127.0.0.1, ::1), or --sign-in, needs "
                + "accounts to sign in with, and the store has none yet; add one with 'prospects user add NAME --role admin', or use "
                + "--host 127.0.0.1 and an SSH tunnel or a reverse proxy"
        case .cannotListen(let error):
            error.description
        case .uploadsUnusable(let why), .tlsUnavailable(let why):
            why
        }
    }
}
