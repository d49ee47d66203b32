/// Why a server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// The host is not a numeric IPv4 or IPv6 address (nor `localhost`).
    case invalidAddress(String)
    /// Another socket already listens on this address and port.
    case addressInUse(host: String, port: UInt16)
    /// Binding needs a privilege this process lacks (a port below 1024 without root or CAP_NET_BIND_SERVICE).
    case permissionDenied(host: String, port: UInt16)
    /// No interface of this machine has this address.
    case addressNotAvailable(host: String, port: UInt16)
    /// A socket call failed otherwise.
    case socketFailed(call: String, errno: Int32)
    /// A TLS certificate or key file could not be read.
    case tlsFileUnreadable(path: String)
    /// libmicrohttpd (GnuTLS) refused the certificate or the private key, or the two do not match.
    case tlsCredentialsRejected
    /// A configuration value is out of range (the message names it).
    case invalidConfiguration(String)
    /// libmicrohttpd refused to start for a reason it does not report.
    case startFailed
    /// libmicrohttpd.so.12, loaded when a server first starts (Sources/CMicroHTTPD), could not be loaded.
    case libraryUnavailable

    public var description: String {
        switch self {
        case .invalidAddress(let host):
            "cannot listen on \(host): not a numeric IPv4 or IPv6 address"
        case .addressInUse(let host, let port):
            "cannot listen on \(host) port \(port): the address is already in use"
        case .permissionDenied(let host, let port):
            "cannot listen on \(host) port \(port): permission denied (ports below 1024 need privileges)"
        case .addressNotAvailable(let host, let port):
            "cannot listen on \(host) port \(port): no interface of this machine has that address"
        case .socketFailed(let call, let errno):
            "cannot listen: \(call) failed with errno \(errno)"
        case .tlsFileUnreadable(let path):
            "cannot read the TLS file \(path)"
        case .tlsCredentialsRejected:
            "the TLS certificate or private key was refused (not PEM, or they do not match)"
        case .invalidConfiguration(let message):
            "invalid server configuration: \(message)"
        case .startFailed:
            "libmicrohttpd could not start the server"
        case .libraryUnavailable:
            "libmicrohttpd.so.12 could not be loaded (Debian's libmicrohttpd12 package)"
        }
    }
}
