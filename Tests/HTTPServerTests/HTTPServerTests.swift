import Foundation
import HTTPServer
import Synchronization
import Testing
import WebTestSupport

@Suite struct HTTPServerTests {
    @Test func answersOnAKeptAliveConnectionAndPassesMethodPathHeadersAndAddress() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            .text("\(request.method) \(request.path) \(request.headers["x-custom"] ?? "-") \(request.remoteAddress)")
        }
        let client = try RawHTTPClient(port: server.port)
        let first = try client.request("GET", "/a/b", headers: [("X-CUSTOM", "one")])
        let second = try client.request("DELETE", "/c", headers: [("x-Custom", "two")])
        #expect(first.status == 200)
        #expect(first.text == "GET /a/b one 127.0.0.1")
        #expect(first.header("connection")?.lowercased() != "close")
        #expect(second.text == "DELETE /c two 127.0.0.1")
    }

    @Test func decodesQueryItemsInOrder() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            .text(request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "|"))
        }
        let response = try RawHTTPClient(port: server.port).request(
            "GET", "/search?q=caf%C3%A9+au%20lait&tag=a&tag=b&empty=&lt=%3Cb%3E")
        #expect(response.text == "q=café au lait|tag=a|tag=b|empty=|lt=<b>")
    }

    @Test func readsCookies() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            .text("\(request.cookie("session") ?? "-") \(request.cookies.count)")
        }
        let response = try RawHTTPClient(port: server.port).request(
            "GET", "/", headers: [("Cookie", "theme=dark; session=abc123")])
        #expect(response.text == "abc123 2")
    }

    @Test func keepsARawBodyAndRefusesOneOverTheLimit() throws {
        var configuration = testConfiguration()
        configuration.maximumBodySize = 1_000
        let calls = Counter()
        let server = try HTTPServer(configuration: configuration) { request in
            calls.increment()
            return .text("\(request.body.count) \(String(decoding: request.body, as: UTF8.self))")
        }
        let client = try RawHTTPClient(port: server.port)
        let json = Array(#"{"name":"Ada"}"#.utf8)
        let echoed = try client.request("POST", "/api", headers: [("Content-Type", "application/json")], body: json)
        #expect(echoed.text == #"14 {"name":"Ada"}"#)

        // Only the head is sent: the server answers before reading a body it would refuse.
        let refused = try RawHTTPClient(port: server.port)
        try refused.send(Array("POST /api HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n".utf8))
        let answer = try refused.readResponse()
        #expect(answer.status == 413)
        #expect(calls.value == 1)
    }

    /// A raw body sent chunked (no Content-Length to refuse it by) is cut once it passes the limit: the handler's
    /// `refused` answers while the client is still sending, and `respond` is never called.
    @Test func cutsAChunkedBodyAtTheLimitWithTheHandlersRefusal() throws {
        struct Handler: HTTPHandler {
            let calls: Counter
            func respond(to request: HTTPRequest) -> HTTPResponse {
                calls.increment()
                return .text("kept")
            }
            func refused(_ refusal: HTTPRefusal) -> HTTPResponse {
                var response = HTTPResponse.text("refused \(refusal.status) \(refusal.path)", status: refusal.status)
                response.headers.set("X-Refused-By", "handler")
                return response
            }
        }
        var configuration = testConfiguration()
        configuration.maximumBodySize = 100_000
        let calls = Counter()
        let server = try HTTPServer(configuration: configuration, handler: Handler(calls: calls))
        let client = try RawHTTPClient(port: server.port)
        client.setSendBuffer(64 << 10)
        let head = "POST /api HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"
        try client.send(Array(head.utf8))
        let piece = Array("4000\r\n".utf8) + [UInt8](repeating: 0x61, count: 0x4000) + Array("\r\n".utf8)
        var sent = 0
        while sent < 1 << 30, !client.hasSomethingToRead() {
            do { try client.send(piece) } catch { break }
            sent += 0x4000
        }
        let answer = try client.readResponse(method: "POST")
        #expect(answer.status == 413)
        #expect(answer.text == "refused 413 /api")
        #expect(answer.header("X-Refused-By") == "handler")
        #expect(sent < 100_000 + (8 << 20), "cut early: \(sent) bytes sent")
        #expect(calls.value == 0)
    }

    @Test func parsesAURLEncodedForm() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            .text(
                request.form.fields.map { "\($0.name)=\($0.value)" }.joined(separator: "|") + " \(request.body.count)")
        }
        let response = try RawHTTPClient(port: server.port).request(
            "POST", "/form", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("name=Ada+Lovelace&note=%3Cscript%3E&tag=a&tag=b".utf8))
        #expect(response.text == "name=Ada Lovelace|note=<script>|tag=a|tag=b 0")
    }

    @Test func refusesFormFieldsLargerThanTheBodyLimit() throws {
        var configuration = testConfiguration()
        configuration.maximumBodySize = 1_000
        let calls = Counter()
        let server = try HTTPServer(configuration: configuration) { _ in
            calls.increment()
            return .text("stored")
        }
        let response = try RawHTTPClient(port: server.port).request(
            "POST", "/form", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array(("note=" + String(repeating: "a", count: 2_000)).utf8))
        #expect(response.status == 413)
        #expect(calls.value == 0)
    }

    @Test func streamsTwoUploadedFilesToDiskAndRemovesThemAfterTheResponse() throws {
        let folder = try UploadFolder()
        let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let small = Array("second file\n".utf8)
        let server = try HTTPServer(configuration: testConfiguration(uploadsIn: folder)) { request in
            let described = request.form.files.map { file in
                let content = FileManager.default.contents(atPath: file.path).map(Array.init) ?? []
                let same = content == (file.fileName == "a.bin" ? big : small)
                return "\(file.fieldName):\(file.fileName):\(file.contentType ?? "-"):\(file.size):\(same)"
            }
            return .text(described.joined(separator: "|") + " caption=\(request.form["caption"] ?? "-")")
        }
        var multipart = MultipartBody()
        multipart.add(field: "caption", value: "two files")
        multipart.add(file: "pictures", fileName: "a.bin", contentType: "application/octet-stream", content: big)
        multipart.add(file: "pictures", fileName: "b.txt", contentType: "text/plain", content: small)
        let client = try RawHTTPClient(port: server.port)
        let response = try client.request(
            "POST", "/upload", headers: [("Content-Type", multipart.contentType)], body: multipart.finished)
        #expect(response.status == 200)
        #expect(
            response.text
                == "pictures:a.bin:application/octet-stream:300000:true|pictures:b.txt:text/plain:12:true"
                + " caption=two files")
        // The first request is completed before the next one on the same connection is read.
        _ = try client.request("GET", "/")
        #expect(folder.contents.isEmpty)
    }

    @Test func keepsAnUploadTheHandlerMovedAway() throws {
        let folder = try UploadFolder()
        let kept = try UploadFolder()
        let server = try HTTPServer(configuration: testConfiguration(uploadsIn: folder)) { request in
            guard let file = request.form.files.first else { return .text("no file", status: 400) }
            let destination = kept.path + "/" + file.fileName
            let moved = rename(file.path, destination) == 0
            return .text(moved ? "kept" : "not moved")
        }
        var multipart = MultipartBody()
        multipart.add(file: "picture", fileName: "card.png", contentType: "image/png", content: [9, 8, 7])
        let client = try RawHTTPClient(port: server.port)
        let response = try client.request(
            "POST", "/upload", headers: [("Content-Type", multipart.contentType)], body: multipart.finished)
        #expect(response.text == "kept")
        _ = try client.request("GET", "/")
        #expect(folder.contents.isEmpty)
        #expect(FileManager.default.contents(atPath: kept.path + "/card.png") == Data([9, 8, 7]))
    }

    @Test func refusesAnOversizeUploadWith413AndKeepsNothing() throws {
        let folder = try UploadFolder()
        var configuration = testConfiguration(uploadsIn: folder)
        configuration.maximumFileSize = 64 * 1024
        let calls = Counter()
        let server = try HTTPServer(configuration: configuration) { _ in
            calls.increment()
            return .text("stored")
        }
        var multipart = MultipartBody()
        multipart.add(file: "pictures", fileName: "small.png", contentType: "image/png", content: [1, 2, 3])
        multipart.add(
            file: "pictures", fileName: "huge.png", contentType: "image/png",
            content: [UInt8](repeating: 7, count: 200_000))
        let client = try RawHTTPClient(port: server.port)
        let response = try client.request(
            "POST", "/upload", headers: [("Content-Type", multipart.contentType)], body: multipart.finished)
        #expect(response.status == 413)
        #expect(response.text.contains("huge.png"))
        #expect(try client.isClosedByPeer())
        #expect(calls.value == 0)
        #expect(folder.contents.isEmpty)
    }

    @Test func refusesMoreFilesThanAllowed() throws {
        let folder = try UploadFolder()
        var configuration = testConfiguration(uploadsIn: folder)
        configuration.maximumFileCount = 2
        let server = try HTTPServer(configuration: configuration) { _ in .text("stored") }
        var multipart = MultipartBody()
        for index in 1...3 {
            multipart.add(file: "f", fileName: "\(index).png", contentType: "image/png", content: [1])
        }
        let client = try RawHTTPClient(port: server.port)
        let response = try client.request(
            "POST", "/upload", headers: [("Content-Type", multipart.contentType)], body: multipart.finished)
        #expect(response.status == 413)
        #expect(try client.isClosedByPeer())
        #expect(folder.contents.isEmpty)
    }

    @Test func servesARequestWhileTwoHundredIdleConnectionsAreOpen() throws {
        let server = try HTTPServer(configuration: testConfiguration()) { _ in .text("still here") }
        let idle = try (0..<200).map { _ in try RawHTTPClient(port: server.port) }
        let response = try RawHTTPClient(port: server.port).request("GET", "/")
        #expect(response.text == "still here")
        #expect(idle.count == 200)
    }

    @Test func closesAConnectionOverTheLimitForOneAddress() throws {
        var configuration = testConfiguration()
        configuration.connectionLimitPerAddress = 2
        let server = try HTTPServer(configuration: configuration) { _ in .text("served") }
        let first = try RawHTTPClient(port: server.port)
        let second = try RawHTTPClient(port: server.port)
        #expect(try first.request("GET", "/").text == "served")
        #expect(try second.request("GET", "/").text == "served")
        let third = try RawHTTPClient(port: server.port)
        #expect(try third.isClosedByPeer())
        #expect(try first.request("GET", "/").text == "served")
    }

    @Test func deliversServerSentEventsAsTheyAreWritten() throws {
        let stream = ResponseStream()
        let server = try HTTPServer(configuration: testConfiguration()) { _ in .eventStream(stream) }
        let client = try RawHTTPClient(port: server.port)
        try client.send(RawHTTPClient.requestBytes("GET", "/events", host: "x"))
        let head = try client.readHead()
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream")
        // The connection sleeps until the first write wakes it, and again until the second.
        #expect(stream.send(event: "lead", id: "1", data: "first"))
        let first = try client.readChunk().map { String(decoding: $0, as: UTF8.self) }
        #expect(first == "event: lead\nid: 1\ndata: first\n\n")
        #expect(stream.send(data: "two\nlines"))
        stream.finish()
        var rest = ""
        while let chunk = try client.readChunk() { rest += String(decoding: chunk, as: UTF8.self) }
        #expect(rest == "data: two\ndata: lines\n\n")
        #expect(!stream.isOpen)
    }

    /// A writer faster than its client waits while the unsent bytes exceed its limit, so that a large download is
    /// never held whole; and a stream that fails ends without the chunked body's last chunk, so the client can tell.
    @Test func aStreamHoldsItsWriterBackAndAFailureCutsTheBody() throws {
        let stream = ResponseStream()
        let server = try HTTPServer(configuration: testConfiguration()) { _ in HTTPResponse(body: .stream(stream)) }
        let client = try RawHTTPClient(port: server.port)
        try client.send(RawHTTPClient.requestBytes("GET", "/download", host: "x"))
        #expect(try client.readHead().status == 200)
        let written = Atomic<Int>(0)
        let writer = Thread {
            while written.load(ordering: .relaxed) < 1_024,
                stream.write([UInt8](repeating: 65, count: 16_384), holdingAtMost: 65_536)
            {
                written.add(1, ordering: .relaxed)
            }
            stream.fail()
        }
        writer.start()
        // The client reads nothing for a while: the writer gets only a little ahead (the socket's buffers aside).
        Thread.sleep(forTimeInterval: 0.5)
        #expect(written.load(ordering: .relaxed) < 1_024, "the writer waited for the client")
        var received = 0
        var cut = false
        do {
            while let chunk = try client.readChunk() { received += chunk.count }
        } catch {
            cut = true
        }
        #expect(received == 1_024 * 16_384, "everything written was sent before the cut")
        #expect(cut, "no regular end after a failure")
    }

    @Test func stopEndsAnOpenEventStream() throws {
        let stream = ResponseStream()
        let server = try HTTPServer(configuration: testConfiguration()) { _ in .eventStream(stream) }
        let client = try RawHTTPClient(port: server.port)
        try client.send(RawHTTPClient.requestBytes("GET", "/events", host: "x"))
        #expect(try client.readHead().status == 200)
        #expect(stream.sendHeartbeat())
        #expect(try client.readChunk() == Array(":\n\n".utf8))
        // The connection is now suspended, waiting for the next event: stopping must wake and end it.
        server.stop()
        #expect(try client.readChunk() == nil)
        #expect(!stream.isOpen)
        #expect(!stream.send(data: "too late"))
    }

    @Test func sendsAFileAndRefusesAHeaderWithALineBreak() throws {
        let folder = try UploadFolder()
        let path = folder.path + "/page.css"
        try Data("body { color: red }".utf8).write(to: URL(fileURLWithPath: path))
        let server = try HTTPServer(configuration: testConfiguration()) { request in
            if request.path == "/evil" { return HTTPResponse(headers: ["X-Evil": "a\r\nSet-Cookie: x=1"]) }
            if request.path == "/missing" { return HTTPResponse(body: .file(path: folder.path + "/none")) }
            return HTTPResponse(headers: ["Content-Type": "text/css"], body: .file(path: path))
        }
        let client = try RawHTTPClient(port: server.port)
        let file = try client.request("GET", "/page.css")
        #expect(file.text == "body { color: red }")
        #expect(file.header("content-type") == "text/css")
        let evil = try client.request("GET", "/evil")
        #expect(evil.status == 500)
        #expect(evil.header("Set-Cookie") == nil)
        #expect(try client.request("GET", "/missing").status == 500)
    }

    /// A GET and a POST (answered on a writer thread) alike.
    @Test(arguments: ["GET", "POST"]) func stopWaitsForTheRequestInFlight(method: String) throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try HTTPServer(configuration: testConfiguration()) { _ in
            entered.signal()
            release.wait()
            return .text("finished")
        }
        let port = server.port
        let client = try RawHTTPClient(port: port)
        try client.send(RawHTTPClient.requestBytes(method, "/slow", host: "x"))
        entered.wait()
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        release.signal()
        let response = try client.readResponse(method: method)
        stopped.wait()
        #expect(response.text == "finished")
        #expect(server.requestsInFlight == 0)
        #expect(throws: RawHTTPError.socket("connect", ECONNREFUSED)) { try RawHTTPClient(port: port) }
    }

    /// A request that may write (here a POST held until released) is answered on a writer thread: a GET on another
    /// connection of the one polling thread is answered meanwhile, not after it.
    @Test func answersAGetWhileAPostIsHeldOnAWriterThread() throws {
        let post = PostGate()
        var configuration = testConfiguration()
        configuration.threadCount = 1
        configuration.writerThreadCount = 1
        let server = try HTTPServer(configuration: configuration) { request in
            guard request.method == "POST" else {
                return .text("post \(post.state)")
            }
            post.set(.held)
            // Bounded, so that without writer threads the test fails instead of hanging.
            post.wait(for: .released, atMost: 30)
            post.set(.answered)
            return .text("written")
        }
        let writer = try RawHTTPClient(port: server.port)
        try writer.send(RawHTTPClient.requestBytes("POST", "/mark", host: "x", body: Array("a=1".utf8)))
        post.wait(for: .held, atMost: 60)
        let reader = try RawHTTPClient(port: server.port)
        let read = try reader.request("GET", "/list")
        post.set(.released)
        let written = try writer.readResponse(method: "POST")
        #expect(read.text == "post held")
        #expect(written.text == "written")
        #expect(try reader.request("GET", "/again").text == "post answered")
    }

    @Test func reportsTheCauseWhenItCannotListen() throws {
        let first = try HTTPServer(configuration: testConfiguration()) { _ in .text("") }
        var same = testConfiguration()
        same.port = first.port
        #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: first.port)) {
            try HTTPServer(configuration: same) { _ in .text("") }
        }
        var named = testConfiguration()
        named.host = "example.com"
        #expect(throws: HTTPServerError.invalidAddress("example.com")) {
            try HTTPServer(configuration: named) { _ in .text("") }
        }
        var foreign = testConfiguration()
        foreign.host = "192.0.2.1"
        #expect(throws: HTTPServerError.addressNotAvailable(host: "192.0.2.1", port: 0)) {
            try HTTPServer(configuration: foreign) { _ in .text("") }
        }
    }
}

/// Where the POST of `answersAGetWhileAPostIsHeldOnAWriterThread` is, and a wait for it to get somewhere.
private final class PostGate: @unchecked Sendable {
    enum State: Sendable {
        case notStarted, held, released, answered
    }

    private let condition = NSCondition()
    private var current = State.notStarted

    var state: State { condition.withLock { current } }

    func set(_ state: State) {
        condition.withLock {
            current = state
            condition.broadcast()
        }
    }

    /// Waits until the state is `state`, or `seconds` have passed.
    func wait(for state: State, atMost seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.withLock {
            while current != state, condition.wait(until: deadline) {}
        }
    }
}
