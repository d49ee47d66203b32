import Glibc

/// Tells systemd how the service is doing (the `sd_notify` protocol, written by hand: no libsystemd).
///
/// Each message is one datagram to the Unix socket named by `$NOTIFY_SOCKET` (an abstract socket when the name
/// starts with `@`). Without that variable every call does nothing, so the daemon runs the same outside systemd.
public struct SystemdNotifier: Sendable {
    private let socketPath: String?
    /// How often to send `WATCHDOG=1`: half of `$WATCHDOG_USEC`, when the watchdog is meant for this process.
    public let watchdogInterval: Duration?

    public init(environment: [String: String]) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        if let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0,
            environment["WATCHDOG_PID"].flatMap(Int32.init).map({ $0 == getpid() }) ?? true
        {
            watchdogInterval = .microseconds(Int64(usec / 2))
        } else {
            watchdogInterval = nil
        }
    }

    public var isEnabled: Bool { socketPath != nil }

    public func ready() { send("READY=1") }
    public func stopping() { send("STOPPING=1") }
    public func watchdog() { send("WATCHDOG=1") }
    /// A one-line status `systemctl status` shows.
    public func status(_ text: String) {
        send("STATUS=" + String(text.map { $0.isNewline ? " " : $0 }))
    }

    /// Sends `message` (newline-separated `KEY=value` lines). Returns false when it could not be delivered;
    /// a daemon goes on regardless. The corresponding C functions are `socket` and `sendto`.
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }  // abstract namespace: a leading NUL, no terminator
        var address = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        let length = socklen_t(pathOffset + path.count + (path.first == 0 ? 0 : 1))

        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
        return sent == bytes.count
    }
}
