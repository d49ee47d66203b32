import CMicroHTTPD
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Accepts a TLS server's connections itself and looks at each one's first byte before libmicrohttpd does: a TLS
/// handshake (0x16) is handed to libmicrohttpd (`MHD_add_connection`); anything else is plain HTTP sent to the HTTPS
/// port, which gets a clear answer (`answerPlain`) instead of a connection closed by a failed handshake.
///
/// A class because it owns the thread that accepts and the pipe that stops it.
final class TLSPortSniffer: @unchecked Sendable {
    /// How long an accepted connection may stay silent before it is handed on anyway, and how many may wait.
    static let firstByteWait: Int64 = 10_000
    static let maximumWaiting = 1_024

    private let listening: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let handOff: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Void
    private let answerPlain: (Int32, [UInt8], String) -> Void
    private let finished = Locked(false)
    private var thread: pthread_t?

    /// One connection accepted, its address, and until when its first byte is waited for (milliseconds).
    private struct Waiting {
        var fd: Int32
        var address: sockaddr_storage
        var length: socklen_t
        var deadline: Int64
    }

    init(
        listening: Int32, handOff: @escaping (Int32, UnsafePointer<sockaddr>, socklen_t) -> Void,
        answerPlain: @escaping (Int32, [UInt8], String) -> Void
    ) throws(HTTPServerError) {
        self.listening = listening
        self.handOff = handOff
        self.answerPlain = answerPlain
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .socketFailed(call: "pipe", errno: errno) }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        _ = fcntl(listening, F_SETFL, fcntl(listening, F_GETFL) | O_NONBLOCK)
        let context = Unmanaged.passRetained(self).toOpaque()
        var made = pthread_t()
        guard
            pthread_create(
                &made, nil,
                { context in
                    let sniffer = Unmanaged<TLSPortSniffer>.fromOpaque(context!).takeRetainedValue()
                    sniffer.run()
                    return nil
                }, context) == 0
        else {
            Unmanaged<TLSPortSniffer>.fromOpaque(context).release()
            close(wakeRead)
            close(wakeWrite)
            throw .startFailed
        }
        thread = made
    }

    /// Stops accepting, closes the connections still waiting and the listening socket, and waits for the thread.
    func stop() {
        guard
            !finished.withLock({ state in
                defer { state = true }
                return state
            })
        else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        if let thread { pthread_join(thread, nil) }
        close(wakeRead)
        close(wakeWrite)
        close(listening)
    }

    private static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }

    private func run() {
        var waiting: [Waiting] = []
        defer { for connection in waiting { close(connection.fd) } }
        while true {
            var descriptors = [pollfd(fd: listening, events: Int16(POLLIN), revents: 0)]
            descriptors.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            for connection in waiting {
                descriptors.append(pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0))
            }
            _ = poll(&descriptors, nfds_t(descriptors.count), 500)
            if descriptors[1].revents != 0 { return }
            let now = Self.milliseconds()
            var still: [Waiting] = []
            for (index, connection) in waiting.enumerated() {
                let ready = descriptors[index + 2].revents != 0
                if !ready && now < connection.deadline {
                    still.append(connection)
                    continue
                }
                var first: UInt8 = 0
                let count = recv(connection.fd, &first, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                if count == 1 && first != 0x16 {
                    answer(connection)
                } else if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                    close(connection.fd)
                } else {
                    // A handshake, or silence past the wait: libmicrohttpd's TLS and timeouts take it from here.
                    give(connection)
                }
            }
            waiting = still
            guard descriptors[0].revents != 0 else { continue }
            while true {
                var address = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let fd = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        accept(listening, $0, &length)
                    }
                }
                guard fd >= 0 else { break }
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                let connection = Waiting(fd: fd, address: address, length: length, deadline: now + Self.firstByteWait)
                if waiting.count >= Self.maximumWaiting { give(connection) } else { waiting.append(connection) }
            }
        }
    }

    private func give(_ connection: Waiting) {
        var address = connection.address
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { handOff(connection.fd, $0, connection.length) }
        }
    }

    /// Reads what the client sent (at most 8 KiB: its request head), answers it, and closes the connection.
    private func answer(_ connection: Waiting) {
        var bytes = [UInt8](repeating: 0, count: 8 << 10)
        let count = recv(connection.fd, &bytes, bytes.count, Int32(MSG_DONTWAIT))
        var host = [CChar](repeating: 0, count: 64)
        var address = connection.address
        let named = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, connection.length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0
            }
        }
        let remote = named ? String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        answerPlain(connection.fd, Array(bytes.prefix(max(0, count))), remote)
        close(connection.fd)
    }
}
