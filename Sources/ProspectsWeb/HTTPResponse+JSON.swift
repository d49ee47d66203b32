import Foundation
import HTTPServer

extension HTTPResponse {
    /// `value` encoded as a JSON body (`application/json; charset=utf-8`); `fallback` is sent instead in the unlikely
    /// case it cannot be encoded, so a page's script always reads JSON of the shape it expects.
    static func json(_ value: some Encodable, status: Int = 200, fallback: String = "{}") -> HTTPResponse {
        let body = (try? JSONEncoder().encode(value)).map(Array.init) ?? Array(fallback.utf8)
        return HTTPResponse(
            status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(body))
    }
}
