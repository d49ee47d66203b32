import Foundation
import HTTPServer
import SafeHTML
import Testing
import WebTestSupport

/// The server, a page written with SafeHTML, and a real headless Chromium driven through chromedriver.
@Suite(.serialized) struct BrowserTests {
    /// A form page, and its answer page greeting the posted name.
    static func page(for request: HTTPRequest, posts: NamesSeen) -> HTTPResponse {
        let body: HTML
        if request.method == "POST", request.path == "/greet" {
            let name = request.form["name"] ?? ""
            posts.add(name)
            body = HTML.main {
                HTML.h1 { "Answer" }
                HTML.p(.id("answer")) { "Hello, \(name)!" }
                HTML.a(.href("/")) { "Again" }
            }
        } else {
            body = HTML.main {
                HTML.h1 { "Who are you?" }
                HTML.form(.method("post"), .action("/greet")) {
                    HTML.label {
                        "Name "; HTML.input(.name("name"), .id("name"), .flag("required"))
                    }
                    HTML.button(.type("submit"), .id("send")) { "Send" }
                }
            }
        }
        let page = HTML.document {
            HTML.meta(.attribute("charset", "utf-8"))
            HTML.meta(.name("viewport"), .attribute("content", "width=device-width, initial-scale=1"))
            HTML.title { "Greeting" }
        } body: {
            body
        }
        return .text(page.markup, contentType: "text/html; charset=utf-8")
    }

    @Test(arguments: [(390, 844, true), (1280, 800, false)])
    func submitsAFormAndShowsTheAnswer(width: Int, height: Int, mobile: Bool) throws {
        let posts = NamesSeen()
        let server = try HTTPServer(configuration: testConfiguration()) { Self.page(for: $0, posts: posts) }
        let driver = try ChromeDriver()
        defer { driver.stop() }
        let session = try driver.newSession(width: width, height: height, mobile: mobile)
        defer { session.close() }

        try session.navigate(to: "http://127.0.0.1:\(server.port)/")
        let viewport = try session.execute("return [window.innerWidth, window.innerHeight]") as? [Int]
        #expect(viewport == [width, height])
        let form = "\(screenshotFolder)/form-\(width)x\(height).png"
        try session.screenshot(to: form)
        #expect(try pngSize(form) == [width, height])

        let name = "<img src=x onerror=alert(1)> Ada"
        try session.type(name, into: try session.findElement("#name"))
        try session.click(try session.findElement("#send"))
        let answer = try session.findElement("#answer")
        #expect(try session.text(of: answer) == "Hello, \(name)!")
        #expect(posts.names == [name])
        // The name shows as text: no image was made of it, no script ran.
        #expect(try session.execute("return document.images.length") as? Int == 0)
        #expect(try session.currentURL().hasSuffix("/greet"))
        try session.screenshot(to: "\(screenshotFolder)/answer-\(width)x\(height).png")
        print("screenshots in \(screenshotFolder)")
    }

    /// The width and height in a PNG file's IHDR chunk.
    private func pngSize(_ path: String) throws -> [Int] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count > 24 && bytes[1...3] == [0x50, 0x4E, 0x47])
        let number = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return [number(16), number(20)]
    }
}

/// The names the server was sent, from its worker threads.
final class NamesSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    var names: [String] { lock.withLock { seen } }
    func add(_ name: String) { lock.withLock { seen.append(name) } }
}
