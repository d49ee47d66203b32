import Foundation
import Glibc

/// A datagram socket in the abstract namespace standing in for systemd's notification socket (`NOTIFY_SOCKET`).
///
/// A class because it owns the socket, closed when released.
public final class NotifySocket {
    let fd: Int32
    /// The `NOTIFY_SOCKET` value (`@name`: the abstract namespace).
    public let address: String

    public init() throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        address = "@prospects-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var sockaddr = sockaddr_un()
        sockaddr.sun_family = sa_family_t(AF_UNIX)
        let path = [UInt8(0)] + Array(address.utf8.dropFirst())
        withUnsafeMutableBytes(of: &sockaddr.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count)
        let bound = withUnsafePointer(to: &sockaddr) {
            $0.withMemoryRebound(to: Glibc.sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            throw POSIXError(.EADDRINUSE)  // deinit closes the socket: it runs after a throw here
        }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// The next datagram, or nil after a second of silence.
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }
}
