import HTTPServer
import Testing

@Suite struct HTTPHeadersTests {
    @Test func looksUpNamesWithoutRegardToCaseAndKeepsRepeats() {
        var headers: HTTPHeaders = ["Content-Type": "text/html", "Set-Cookie": "a=1"]
        headers.append("set-cookie", "b=2")
        #expect(headers["content-type"] == "text/html")
        #expect(headers["CONTENT-TYPE"] == "text/html")
        #expect(headers["Content-Typf"] == nil)
        #expect(headers["Content-Type-"] == nil)
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        headers.set("SET-COOKIE", "c=3")
        #expect(headers.values(for: "set-cookie") == ["c=3"])
    }
}
