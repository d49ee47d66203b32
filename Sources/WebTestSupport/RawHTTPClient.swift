import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 client over one plain TCP connection, written on sockets so a test sees exactly what is on the wire
/// (Foundation's URLSession cannot talk to chromedriver). It reads bodies by Content-Length, chunked, or to close.
///
/// A class because it owns the socket, closed by `close()` or when released.
public final class RawHTTPClient {
    public let host: String
    public let port: UInt16
    private var fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host` (numeric IPv4) and `port`; reads give up after `timeoutSeconds` of silence.
    public init(host: String = "127.0.0.1", port: UInt16, timeoutSeconds: Int = 30) throws(RawHTTPError) {
        self.host = host
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket("socket", errno) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close()  // and marks it closed: deinit runs after a throw here, as every property is set
            throw .socket("connect", code)
        }
    }

    deinit { close() }

    /// Closes the connection. Safe to call more than once.
    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Sends one request (with `Host` and, for a body, `Content-Length`) and reads its response.
    public func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws(RawHTTPError) -> RawHTTPResponse {
        try send(Self.requestBytes(method, path, host: "\(host):\(port)", headers: headers, body: body))
        return try readResponse(method: method)
    }

    /// The bytes of a request, as `request` sends them.
    public static func requestBytes(
        _ method: String, _ path: String, host: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// Writes raw bytes to the connection.
    public func send(_ bytes: [UInt8]) throws(RawHTTPError) {
        var offset = 0
        while offset < bytes.count {
            let count = retryingOnInterrupt {
                bytes.withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            guard count >= 0 else { throw .socket("send", errno) }
            offset += count
        }
    }

    /// Reads a whole response: the head, then the body (none for HEAD, 204 and 304).
    public func readResponse(method: String = "GET") throws(RawHTTPError) -> RawHTTPResponse {
        var response = try readHead()
        if method == "HEAD" || response.status == 204 || response.status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            while let chunk = try readChunk() { response.body += chunk }
        } else if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = try readExactly(length)
        } else {
            response.body = try readToClose()
        }
        return response
    }

    /// Reads a response's status line and headers, leaving its body to be read.
    public func readHead() throws(RawHTTPError) -> RawHTTPResponse {
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = Self.find(terminator, in: buffer) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + terminator.count)
                var lines = head.components(separatedByCRLF: ())
                let statusLine = lines.removeFirst()
                let parts = statusLine.split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, let status = Int(parts[1]) else { throw .malformed(statusLine) }
                let headers = lines.compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
                    return (String(line[..<colon]), String(value))
                }
                return RawHTTPResponse(status: status, headers: headers, body: [])
            }
            guard try fill() else { throw .closed }
        }
    }

    /// Reads the next chunk of a chunked body; nil after the last (empty) chunk and its trailer.
    public func readChunk() throws(RawHTTPError) -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";")[0].trimmingSpaces(), radix: 16) else {
            throw .malformed(sizeLine)
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let chunk = try readExactly(size)
        _ = try readLine()
        return chunk
    }

    private func readLine() throws(RawHTTPError) -> String {
        let crlf: [UInt8] = [13, 10]
        while true {
            if let end = Self.find(crlf, in: buffer) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                return line
            }
            guard try fill() else { throw .closed }
        }
    }

    private func readExactly(_ count: Int) throws(RawHTTPError) -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw .closed }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    private func readToClose() throws(RawHTTPError) -> [UInt8] {
        while try fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    /// True when the peer has sent something not read yet (or closed the connection), without waiting.
    public func hasSomethingToRead() -> Bool {
        guard buffer.isEmpty else { return true }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// Sets the socket's send buffer (SO_SNDBUF), so that a test knows how much the kernel holds of what it sent.
    public func setSendBuffer(_ bytes: Int32) {
        var size = bytes
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// True when the peer has closed the connection (a read returns end of file).
    public func isClosedByPeer() throws(RawHTTPError) -> Bool {
        buffer.isEmpty ? !(try fill()) : false
    }

    /// Reads what the socket has into the buffer; false at end of file.
    private func fill() throws(RawHTTPError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = retryingOnInterrupt { chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
        if count > 0 {
            buffer += chunk[..<count]
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw errno == EAGAIN ? .timedOut : .socket("recv", errno)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return start }
        }
        return nil
    }
}

extension String {
    fileprivate func components(separatedByCRLF: ()) -> [String] {
        var lines: [String] = []
        var current = ""
        for character in self {
            if character == "\r\n" || character == "\n" {
                lines.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        lines.append(current)
        return lines
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
