import Foundation
import ProspectsWeb
import Testing
import WebTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A thousand connections that say nothing, or half a request head (slowloris), are held by `serve` without
/// keeping a real request from being answered.
@Suite struct WebIdleConnectionsTests {
    static let idleCount = 1_000

    @Test func aThousandIdleConnectionsDoNotStopARealRequestFromBeingServed() throws {
        // Each idle connection costs two descriptors in this process: the client's socket and the server's.
        try raiseOpenFileLimit(to: 2 * Self.idleCount + 512)
        let web = try WebFixture(leads: sampleLeads)
        var idle: [Int32] = []
        defer { for fd in idle { close(fd) } }
        for index in 0..<Self.idleCount {
            let fd = try connectedSocket(port: web.port)
            idle.append(fd)
            if index % 2 == 1 {
                let half = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nUser-Agent: slow".utf8)
                #expect(half.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == half.count)
            }
        }
        // Accepted in order: by the time the server takes this connection it holds every idle one. The deadline is
        // generous, yet shorter than the 30 s after which the server closes a silent connection and so makes room.
        let client = try RawHTTPClient(port: web.port, timeoutSeconds: 15)
        let response = try client.request("GET", "/")
        #expect(response.status == 200)
        #expect(response.text.contains("Ada Lovelace"))
        // The server held the idle connections rather than dropping them (or timing them out) to make room.
        let open = idle.filter { fd in
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK)) == -1 && errno == EAGAIN
        }
        #expect(open.count == Self.idleCount)
    }
}

/// A TCP connection to 127.0.0.1:`port` on which nothing is sent.
private func connectedSocket(port: UInt16) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SocketFailure(call: "socket", code: errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        let code = errno
        close(fd)
        throw SocketFailure(call: "connect", code: code)
    }
    return fd
}

/// Raises this process's soft limit on open files to `count` when it is lower (within the hard limit): a shell's
/// default of 1,024 is too few for a thousand connections seen from both ends.
private func raiseOpenFileLimit(to count: Int) throws {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
        throw SocketFailure(call: "getrlimit", code: errno)
    }
    guard limit.rlim_cur < rlim_t(count) else { return }
    guard limit.rlim_max >= rlim_t(count) else {
        throw SocketFailure(call: "setrlimit (hard limit \(limit.rlim_max) below \(count))", code: EPERM)
    }
    limit.rlim_cur = rlim_t(count)
    guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
        throw SocketFailure(call: "setrlimit", code: errno)
    }
}

private struct SocketFailure: Error, CustomStringConvertible {
    let call: String
    let code: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}
