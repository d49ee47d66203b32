import Foundation
import HTTPServer
import ProspectsCore
import Testing
import WebTestSupport

@testable import ProspectsWeb

/// gzip on the real server by raw HTTP: text, scripts, JSON and WebAssembly compressed when the request allows it,
/// read back equal to the plain body; each copy with its own `ETag` and 304; HEAD as GET without the body; pictures
/// and the event stream never compressed.
@Suite struct WebCompressionTests {
    static let gzip = ("Accept-Encoding", "gzip, deflate, br")

    /// The plain and the gzip'd answer to `path`; the gzip'd one read back.
    static func both(_ web: WebFixture, _ path: String) throws -> (plain: RawHTTPResponse, packed: RawHTTPResponse) {
        let plain = try web.request("GET", path)
        let packed = try web.request("GET", path, headers: [gzip])
        return (plain, packed)
    }

    @Test func staticFilesAndTheModuleAreSentGzipdWithTheirOwnTagAnd304() throws {
        let web = try WebFixture()
        for path in ["/static/app.css", "/static/queue.js", "/sw.js", "/manifest.webmanifest", ZBarModule.path] {
            let (plain, packed) = try Self.both(web, path)
            #expect(plain.status == 200 && packed.status == 200, "\(path)")
            #expect(plain.header("Content-Encoding") == nil, "\(path): no gzip unless asked for")
            #expect(packed.header("Content-Encoding") == "gzip", "\(path)")
            #expect(packed.header("Vary") == "Accept-Encoding" && plain.header("Vary") == "Accept-Encoding", "\(path)")
            #expect(packed.header("Content-Length") == String(packed.body.count), "\(path)")
            #expect(packed.body.count < plain.body.count, "\(path): \(packed.body.count) of \(plain.body.count)")
            let same = Gzip.decompress(packed.body) == plain.body
            #expect(same, "\(path): the same bytes once read back")
            let tag = try #require(plain.header("ETag"), "\(path)")
            let packedTag = try #require(packed.header("ETag"), "\(path)")
            #expect(packedTag != tag && packedTag.hasSuffix("-gzip\""), "\(path): \(packedTag)")
            #expect(packed.header("Content-Type") == plain.header("Content-Type"), "\(path)")

            // The copy a browser holds is answered 304; the other copy's tag is no match.
            let held = try web.request("GET", path, headers: [Self.gzip, ("If-None-Match", packedTag)])
            #expect(held.status == 304 && held.body.isEmpty, "\(path)")
            #expect(held.header("ETag") == packedTag && held.header("Vary") == "Accept-Encoding", "\(path)")
            #expect(try web.request("GET", path, headers: [("If-None-Match", tag)]).status == 304, "\(path)")
            let other = try web.request("GET", path, headers: [Self.gzip, ("If-None-Match", tag)])
            #expect(other.status == 200 && other.body == packed.body, "\(path)")

            // HEAD: the same head as GET, no body.
            let head = try web.request("HEAD", path, headers: [Self.gzip])
            #expect(head.status == 200 && head.body.isEmpty, "\(path)")
            #expect(head.header("Content-Length") == String(packed.body.count), "\(path)")
            #expect(head.header("Content-Encoding") == "gzip" && head.header("ETag") == packedTag, "\(path)")
            #expect(try web.request("HEAD", path, headers: [Self.gzip, ("If-None-Match", packedTag)]).status == 304)
        }
    }

    @Test func pagesAreCompressedPerResponseAndSmallOrPicturesOrStreamsAreNot() throws {
        let leads = (1...40).map { Prospect(name: "Person \($0)", email: "person\($0)@example.org") }
        let web = try WebFixture(leads: leads)
        _ = try web.get("/")  // the visitor's form cookie, so that both pages carry the same token
        // (The scan page names a new receipt each time, so it is not compared.)
        for path in ["/", "/leads/1", "/reminders"] {
            let (plain, packed) = try Self.both(web, path)
            #expect(packed.header("Content-Encoding") == "gzip", "\(path)")
            #expect(packed.header("ETag") == nil, "\(path)")
            let same = Gzip.decompress(packed.body) == plain.body
            #expect(same, "\(path): the same bytes once read back")
            #expect(packed.body.count < plain.body.count / 2, "\(path): \(packed.body.count) of \(plain.body.count)")
        }
        // JSON under a kilobyte: as it is, but marked as one that may vary.
        let due = try web.request("GET", "/reminders/due", headers: [Self.gzip])
        #expect(due.header("Content-Encoding") == nil && due.header("Vary") == "Accept-Encoding")
        #expect(due.text.hasPrefix("{"))
        // PNG is compressed already.
        let icon = try web.request("GET", "/static/icon-192.png", headers: [Self.gzip])
        #expect(icon.header("Content-Type") == "image/png" && icon.header("Content-Encoding") == nil)
        #expect(icon.header("Vary") == nil)
        // Refused by weight: gzip;q=0, or only identity.
        for refusal in ["gzip;q=0, identity", "identity", "br", "*;q=0", ""] {
            let page = try web.request("GET", "/", headers: [("Accept-Encoding", refusal)])
            #expect(page.header("Content-Encoding") == nil, "\(refusal)")
        }
        #expect(try web.request("GET", "/", headers: [("Accept-Encoding", "*")]).header("Content-Encoding") == "gzip")

        // The event stream keeps streaming, uncompressed.
        let client = try RawHTTPClient(port: web.port)
        defer { client.close() }
        try client.send(
            RawHTTPClient.requestBytes("GET", "/events", host: "127.0.0.1:\(web.port)", headers: [Self.gzip]))
        let head = try client.readHead()
        #expect(head.status == 200 && head.header("Content-Type") == "text/event-stream")
        #expect(head.header("Content-Encoding") == nil)
        let first = try #require(try client.readChunk())
        #expect(String(decoding: first, as: UTF8.self).hasPrefix("retry:"))
    }

    @Test func acceptEncodingIsReadByWeight() {
        #expect(ResponseCompression.acceptsGzip("gzip"))
        #expect(ResponseCompression.acceptsGzip("deflate, GZIP;q=0.5"))
        #expect(ResponseCompression.acceptsGzip("x-gzip"))
        #expect(ResponseCompression.acceptsGzip("br, *"))
        #expect(ResponseCompression.acceptsGzip("gzip ; q = 1"))
        #expect(!ResponseCompression.acceptsGzip(nil))
        #expect(!ResponseCompression.acceptsGzip("gzip;q=0"))
        #expect(!ResponseCompression.acceptsGzip("*, gzip;q=0"))
        #expect(!ResponseCompression.acceptsGzip("identity, br"))
        #expect(!ResponseCompression.acceptsGzip("gzip;q=nonsense"))
    }

    @Test func typesAndTagsAreComparedAsHTTPSays() {
        #expect(ResponseCompression.isCompressible("text/html; charset=utf-8"))
        #expect(ResponseCompression.isCompressible("Application/WASM"))
        #expect(ResponseCompression.isCompressible("image/svg+xml"))
        #expect(!ResponseCompression.isCompressible("image/png"))
        #expect(!ResponseCompression.isCompressible("text/event-stream"))
        #expect(!ResponseCompression.isCompressible(nil))
        #expect(ResponseCompression.gzipTag("\"abc\"") == "\"abc-gzip\"")
        #expect(ResponseCompression.matches("\"x\", W/\"abc\"", "\"abc\""))
        #expect(ResponseCompression.matches("*", "\"abc\""))
        #expect(!ResponseCompression.matches("\"abcd\"", "\"abc\""))
        #expect(
            Gzip.decompress(Gzip.compress(Array("hello, hello, hello".utf8)) ?? []) == Array("hello, hello, hello".utf8)
        )
        #expect(Gzip.decompress(Array("not gzip at all, not at all".utf8)) == nil)
    }
}
