import CMicroHTTPD
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server over libmicrohttpd: it reads requests on a pool of worker threads, calls the handler once a
/// request's body is complete, and sends its response, keeping connections alive between requests.
///
/// A class because it owns the running libmicrohttpd daemon, stopped by `stop()` or when the server is released.
public final class HTTPServer: Sendable {
    /// The port the server listens on (the one chosen by the system when the configuration asked for 0).
    public let port: UInt16
    public let configuration: HTTPServerConfiguration
    private let core: ServerCore
    private let daemon: Locked<Daemon?>

    /// A libmicrohttpd daemon handle and its listening socket, taken once by `stop()`; over TLS, the thread that
    /// accepts in libmicrohttpd's place.
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
        let listeningSocket: Int32
        let sniffer: TLSPortSniffer?
    }

    /// Binds the configured address and starts serving with `handler`.
    public init(configuration: HTTPServerConfiguration = .init(), handler: any HTTPHandler) throws(HTTPServerError) {
        guard configuration.threadCount >= 1 else { throw .invalidConfiguration("threadCount must be at least 1") }
        guard configuration.writerThreadCount >= 0 else {
            throw .invalidConfiguration("writerThreadCount must not be negative")
        }
        guard configuration.connectionLimit >= 1 else {
            throw .invalidConfiguration("connectionLimit must be at least 1")
        }
        guard configuration.connectionMemoryLimit >= 8 * 1024 else {
            throw .invalidConfiguration("connectionMemoryLimit must be at least 8 KiB")
        }
        // libmicrohttpd is loaded here, on first use (Sources/CMicroHTTPD); without it there is no version.
        guard MHD_get_version() != nil else { throw .libraryUnavailable }
        // Each connection holds a descriptor: the process's limit must fit them, else accept(2) fails with EMFILE.
        let available = OpenFileLimit.raise(toAtLeast: configuration.connectionLimit + OpenFileLimit.reserve)
        let connectionLimit = min(configuration.connectionLimit, max(1, available - OpenFileLimit.reserve))
        let socket = try ListeningSocket.open(
            host: configuration.host, port: configuration.port, backlog: configuration.listenBacklog)
        let core = ServerCore(handler: handler, configuration: configuration)
        // poll(2), not epoll: libmicrohttpd's quiesce races its own worker threads over the listening socket's place
        // in each epoll set and aborts the process when it loses (`stop` quiesces). docs/security.md has the numbers.
        var flags =
            MHD_USE_POLL.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        // Over TLS the server accepts itself (TLSPortSniffer), so that plain HTTP sent to the port gets an answer.
        if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue }
        // libmicrohttpd reads the PEM texts while starting; they stay valid until then.
        let certificate = strdup(configuration.tls?.certificatePEM ?? "")
        let key = strdup(configuration.tls?.privateKeyPEM ?? "")
        defer {
            free(certificate)
            free(key)
        }
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(
                option: configuration.tls == nil ? MHD_OPTION.LISTEN_SOCKET : MHD_OPTION.LISTEN_BACKLOG_SIZE,
                value: configuration.tls == nil ? Int(socket.fd) : configuration.listenBacklog, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.THREAD_POOL_SIZE, value: configuration.threadCount, ptr_value: nil),
            MHD_OptionItem(option: MHD_OPTION.CONNECTION_LIMIT, value: connectionLimit, ptr_value: nil),
            MHD_OptionItem(
                option: MHD_OPTION.PER_IP_CONNECTION_LIMIT, value: configuration.connectionLimitPerAddress,
                ptr_value: nil),
            MHD_OptionItem(
                option: MHD_OPTION.CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
            MHD_OptionItem(
                option: MHD_OPTION.CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
        ]
        if configuration.tls != nil {
            options.append(MHD_OptionItem(option: MHD_OPTION.HTTPS_MEM_CERT, value: 0, ptr_value: certificate))
            options.append(MHD_OptionItem(option: MHD_OPTION.HTTPS_MEM_KEY, value: 0, ptr_value: key))
        }
        options.append(MHD_OptionItem(option: MHD_OPTION.END, value: 0, ptr_value: nil))
        let context = Unmanaged.passUnretained(core).toOpaque()
        guard
            let pointer = prospects_mhd_start_daemon(
                flags, accessHandler, context, requestCompleted, &options)
        else {
            // Not closed here: libmicrohttpd closes the socket it was given when it cannot start, and a second close
            // could close a descriptor another thread has just opened under the same number. Over TLS it was given
            // none.
            if configuration.tls != nil { close(socket.fd) }
            core.writers.close()
            throw configuration.tls != nil ? .tlsCredentialsRejected : .startFailed
        }
        var sniffer: TLSPortSniffer?
        if configuration.tls != nil {
            let daemonAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))
            do {
                sniffer = try TLSPortSniffer(
                    listening: socket.fd,
                    handOff: { fd, address, length in
                        let daemon = OpaquePointer(bitPattern: daemonAddress)!
                        _ = MHD_add_connection(daemon, fd, address, length)
                    },
                    answerPlain: { fd, bytes, remote in core.answerPlainHTTP(on: fd, request: bytes, from: remote) })
            } catch {
                MHD_stop_daemon(pointer)
                core.writers.close()
                close(socket.fd)
                throw error
            }
        }
        self.port = socket.port
        self.configuration = configuration
        self.core = core
        self.daemon = Locked(Daemon(pointer: pointer, listeningSocket: socket.fd, sniffer: sniffer))
    }

    /// Starts serving with a closure as the handler.
    public convenience init(
        configuration: HTTPServerConfiguration = .init(), handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) throws(HTTPServerError) {
        try self.init(configuration: configuration, handler: HTTPClosureHandler(handler))
    }

    deinit {
        stop()
    }

    /// Requests being read, handled or answered now (open streams included; idle kept-alive connections not).
    public var requestsInFlight: Int {
        core.requestsInFlight
    }

    /// Stops accepting connections, ends open streams, waits up to `gracePeriod` for the requests in flight to be
    /// answered, then closes every connection. Later calls do nothing.
    public func stop(gracePeriod: Duration = .seconds(30)) {
        guard let daemon = daemon.withLock({ $0.take() }) else { return }
        daemon.sniffer?.stop()
        let quiesced = daemon.sniffer == nil ? MHD_quiesce_daemon(daemon.pointer) : -1
        let clock = ContinuousClock()
        let deadline = clock.now + gracePeriod
        while true {
            // A suspended connection must be resumed before the daemon stops: end every stream, even new ones.
            core.finishStreams()
            if core.requestsInFlight == 0 || clock.now >= deadline { break }
            usleep(5_000)
        }
        // Every connection handed to a writer thread is resumed before the daemon stops (it aborts on a suspended
        // one); requests that come meanwhile are answered on their polling thread.
        core.writers.close()
        MHD_stop_daemon(daemon.pointer)
        // A quiesced daemon hands its listening socket back; otherwise stopping closed it.
        if quiesced >= 0 { close(quiesced) }
    }
}

/// What libmicrohttpd's callbacks reach through their context pointer: the handler, the limits, and the requests
/// and streams in flight.
final class ServerCore: Sendable {
    let handler: any HTTPHandler
    let configuration: HTTPServerConfiguration
    let writers: WriterThreads
    private let inFlight = Atomic<Int>(0)
    private let streams = Locked<[ObjectIdentifier: ResponseStream]>([:])

    init(handler: any HTTPHandler, configuration: HTTPServerConfiguration) {
        self.handler = handler
        self.configuration = configuration
        writers = WriterThreads(count: configuration.writerThreadCount)
    }

    /// Answers `request` on a writer thread when its method may write: the connection is suspended meanwhile and
    /// resumed with the answer kept in `inProgress`, which the access handler then queues. False when it is to be
    /// answered here (GET, HEAD, or no writer thread free to take it).
    func handOff(_ request: HTTPRequest, of inProgress: RequestInProgress, on connection: OpaquePointer) -> Bool {
        guard request.method != "GET", request.method != "HEAD" else { return false }
        let answer = HandedOffAnswer()
        let connectionAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
        let queued = writers.run(
            { [self] in
                answer.set(handler.respond(to: request))
                MHD_resume_connection(OpaquePointer(bitPattern: connectionAddress)!)
            },
            accepted: { MHD_suspend_connection(connection) })
        guard queued else { return false }
        inProgress.handedOff = answer
        return true
    }

    var requestsInFlight: Int { inFlight.load(ordering: .acquiring) }

    func requestStarted() { inFlight.add(1, ordering: .relaxed) }
    func requestFinished() { inFlight.subtract(1, ordering: .releasing) }

    func streamOpened(_ stream: ResponseStream) {
        streams.withLock { $0[ObjectIdentifier(stream)] = stream }
    }

    func streamClosed(_ stream: ResponseStream) {
        streams.withLock { $0[ObjectIdentifier(stream)] = nil }
    }

    func finishStreams() {
        for stream in streams.withLock({ Array($0.values) }) { stream.finish() }
    }

    /// The handler's answer to a request the server refused; the connection is closed after it.
    func refusalResponse(_ refusal: HTTPRefusal) -> HTTPResponse {
        var response = handler.refused(refusal)
        response.headers.set("Connection", "close")
        return response
    }

    /// The bytes of `response` as sent on the wire (its bytes body; a file or stream is sent empty): for an answer
    /// written outside libmicrohttpd.
    static func wireBytes(of response: HTTPResponse) -> [UInt8] {
        var body: [UInt8] = []
        if case .bytes(let bytes) = response.body { body = bytes }
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        for field in response.headers where field.name.lowercased() != "content-length" {
            guard !field.value.contains(where: \.isNewline), !field.name.contains(where: \.isNewline) else { continue }
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Writes `response` straight to a connection whose request libmicrohttpd is reading, for a body cut at its
    /// limit (libmicrohttpd queues no response then): on the socket, or over TLS through the connection's session.
    func answerDirectly(_ response: HTTPResponse, on connection: OpaquePointer) {
        guard configuration.tls != nil else {
            return writeDirectly(response, to: prospects_mhd_connection_socket(connection))
        }
        let bytes = Self.wireBytes(of: response)
        _ = bytes.withUnsafeBytes { prospects_mhd_tls_send(connection, $0.baseAddress, $0.count) }
    }

    /// Writes `response` straight to socket `fd`, then ends the sending side: for a request cut while libmicrohttpd
    /// reads its body, and plain HTTP sent to the HTTPS port. Waits at most a second for room.
    func writeDirectly(_ response: HTTPResponse, to fd: Int32) {
        guard fd >= 0 else { return }
        let bytes = Self.wireBytes(of: response)
        var offset = 0
        var waits = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt {
                    send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
            }
            if sent > 0 {
                offset += sent
                continue
            }
            guard sent < 0, errno == EAGAIN || errno == EWOULDBLOCK, waits < 10 else { break }
            waits += 1
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, 100)
        }
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Answers plain HTTP that reached the HTTPS port (`request`: what the client sent, its head at least) with the
    /// handler's refusal page, naming the `https://` address to open instead.
    func answerPlainHTTP(on fd: Int32, request: [UInt8], from remote: String) {
        let text = String(decoding: request, as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let first = lines.first?.split(separator: " ") ?? []
        var headers: HTTPHeaders = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { break }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers.set(String(line[..<colon]), String(value))
        }
        let refusal = HTTPRefusal(
            status: 400, message: HTTPRefusal.plainHTTPOnTLSPort, method: first.first.map(String.init) ?? "",
            path: first.count > 1 ? String(first[1]) : "/", headers: headers, remoteAddress: remote)
        writeDirectly(refusalResponse(refusal), to: fd)
    }

    /// The reason phrase of the statuses the server refuses with.
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 413: "Content Too Large"
        case 500: "Internal Server Error"
        default: "Error"
        }
    }

    /// Turns `response` into a libmicrohttpd response and queues it on `connection`.
    func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        var response = response
        var made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes {
                MHD_create_response_from_buffer(
                    $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress),
                    MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            var status = stat()
            if fd >= 0, fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
                made = MHD_create_response_from_fd64(UInt64(status.st_size), fd)
            } else {
                if fd >= 0 { close(fd) }
                response = .text("cannot read the file to send", status: 500)
                return queue(response, on: connection)
            }
        case .stream(let stream):
            stream.attach(to: connection)
            streamOpened(stream)
            made = MHD_create_response_from_callback(
                prospects_mhd_size_unknown(), 16 * 1024, streamReader,
                Unmanaged.passRetained(StreamContext(stream: stream, core: self)).toOpaque(), streamReleased)
        }
        guard let made else { return MHD_Result.NO }
        defer { MHD_destroy_response(made) }
        for field in response.headers {
            // libmicrohttpd refuses names and values with line breaks (header injection).
            guard MHD_add_response_header(made, field.name, field.value) == MHD_Result.YES else {
                return queue(.text("invalid response header \(field.name)", status: 500), on: connection)
            }
        }
        return MHD_queue_response(connection, UInt32(clamping: response.status), made)
    }
}

/// A stream and its server, held by libmicrohttpd while the streamed response lives.
private final class StreamContext {
    let stream: ResponseStream
    let core: ServerCore

    init(stream: ResponseStream, core: ServerCore) {
        self.stream = stream
        self.core = core
    }
}

/// libmicrohttpd's access handler. The first call (headers read) only records the request, so that the response
/// comes on a later call and the connection stays alive; body pieces follow; the last call, with no data, answers.
private func accessHandler(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?, url: UnsafePointer<CChar>?,
    method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?,
    uploadDataSize: UnsafeMutablePointer<Int>?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let context, let connection, let requestContext, let uploadDataSize else { return MHD_Result.NO }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    guard let existing = requestContext.pointee else {
        let request = RequestInProgress(
            connection: connection, method: method.map { String(cString: $0) } ?? "",
            path: url.map { String(cString: $0) } ?? "/", limits: core.configuration)
        let opaque = Unmanaged.passRetained(request).toOpaque()
        requestContext.pointee = opaque
        core.requestStarted()
        request.startFormParser(connection: connection, context: opaque)
        guard let refusal = request.refusalDetails() else { return MHD_Result.YES }
        // A declared body over the limit is refused before it is read.
        request.answered = true
        return core.queue(core.refusalResponse(refusal), on: connection)
    }
    let request = Unmanaged<RequestInProgress>.fromOpaque(existing).takeUnretainedValue()
    if uploadDataSize.pointee > 0 {
        if let uploadData, !request.answered { request.receive(uploadData, count: uploadDataSize.pointee) }
        uploadDataSize.pointee = 0
        // A body that passed its limit (one sent chunked, with no Content-Length to refuse it by) is cut now, not
        // read to its end: libmicrohttpd queues no response while it reads a body, so the answer is written here (on
        // the socket, or through the TLS session) and the connection closed.
        if !request.answered, let refusal = request.refusalDetails() {
            request.answered = true
            core.answerDirectly(core.refusalResponse(refusal), on: connection)
            return MHD_Result.NO
        }
        return MHD_Result.YES
    }
    // Resumed by the writer thread that answered it.
    if let handedOff = request.handedOff {
        guard let response = handedOff.take() else { return MHD_Result.YES }
        request.answered = true
        return core.queue(response, on: connection)
    }
    guard !request.answered else { return MHD_Result.YES }
    request.finishBody()
    if let refusal = request.refusalDetails() {
        request.answered = true
        return core.queue(core.refusalResponse(refusal), on: connection)
    }
    let complete = request.request()
    if core.handOff(complete, of: request, on: connection) { return MHD_Result.YES }
    request.answered = true
    return core.queue(core.handler.respond(to: complete), on: connection)
}

/// The answer of a request handed to a writer thread, set there and taken by the polling thread once resumed.
final class HandedOffAnswer: Sendable {
    private let response = Locked<HTTPResponse?>(nil)

    func set(_ value: HTTPResponse) { response.withLock { $0 = value } }
    func take() -> HTTPResponse? { response.withLock { $0.take() } }
}

/// libmicrohttpd's notice that a request is over (answered, or the client left): frees it and its files.
private func requestCompleted(
    context: UnsafeMutableRawPointer?, connection: OpaquePointer?,
    requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, reason: MHD_RequestTerminationCode
) {
    guard let context, let requestContext, let opaque = requestContext.pointee else { return }
    let request = Unmanaged<RequestInProgress>.fromOpaque(opaque).takeRetainedValue()
    requestContext.pointee = nil
    request.discard()
    Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue().requestFinished()
}

private func streamReader(
    context: UnsafeMutableRawPointer?, position: UInt64, buffer: UnsafeMutablePointer<CChar>?, capacity: Int
) -> Int {
    guard let context, let buffer else { return prospects_mhd_content_reader_end_with_error() }
    let stream = Unmanaged<StreamContext>.fromOpaque(context).takeUnretainedValue().stream
    return stream.read(into: buffer, capacity: capacity)
}

private func streamReleased(context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    let held = Unmanaged<StreamContext>.fromOpaque(context).takeRetainedValue()
    held.stream.close()
    held.core.streamClosed(held.stream)
}
