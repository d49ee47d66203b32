#if canImport(Glibc)
    import Glibc
#endif

/// A bound, listening TCP socket, opened by the server itself so that a failure to bind has its exact cause.
struct ListeningSocket {
    let fd: Int32
    let port: UInt16
    let isIPv6: Bool

    /// Binds `host`:`port` and listens. The corresponding C functions are `socket`, `bind`, `listen`.
    static func open(host: String, port: UInt16, backlog: Int) throws(HTTPServerError) -> ListeningSocket {
        let numeric = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let isIPv6: Bool
        if inet_pton(AF_INET, numeric, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            isIPv6 = false
        } else if inet_pton(AF_INET6, numeric, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            isIPv6 = true
        } else {
            throw .invalidAddress(host)
        }
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socketFailed(call: "socket", errno: errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound =
            isIPv6
            ? withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
            : withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        if bound != 0 {
            let code = errno
            close(fd)
            switch code {
            case EADDRINUSE: throw .addressInUse(host: host, port: port)
            case EACCES, EPERM: throw .permissionDenied(host: host, port: port)
            case EADDRNOTAVAIL: throw .addressNotAvailable(host: host, port: port)
            default: throw .socketFailed(call: "bind", errno: code)
            }
        }
        guard listen(fd, Int32(clamping: backlog)) == 0 else {
            let code = errno
            close(fd)
            throw .socketFailed(call: "listen", errno: code)
        }
        var storage = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(fd)
            throw .socketFailed(call: "getsockname", errno: code)
        }
        // sin_port and sin6_port sit at the same offset.
        return ListeningSocket(fd: fd, port: UInt16(bigEndian: storage.sin6_port), isIPv6: isIPv6)
    }
}
