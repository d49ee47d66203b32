import Foundation
import HTTPServer
import SystemCalls

/// gzip for what a browser asks for it (`Accept-Encoding`): text, scripts, JSON, SVG, the manifest and WebAssembly,
/// never pictures already compressed or an event stream (which must keep streaming). A response with an `ETag` (the
/// built-in files, the decoder module) is compressed once, at the smallest level, and kept by its tag; its gzip copy
/// has a tag of its own. Pages made per request are compressed at a fast level when worth it. Then `If-None-Match`
/// against the copy chosen: 304 when the browser holds it.
final class ResponseCompression: Sendable {
    /// A page made per request smaller than this is sent as it is: a few hundred bytes gain nothing.
    static let minimumSize = 1_024
    /// Content types worth compressing (before any `;` parameter).
    static let compressibleTypes: Set<String> = [
        "text/html", "text/css", "text/javascript", "application/javascript", "text/plain", "application/json",
        "image/svg+xml", "application/manifest+json", "application/wasm",
    ]

    /// The gzip copies of tagged responses, by tag; nil where gzip was no smaller.
    private let kept = Locked<[String: [UInt8]?]>([:])

    /// `response` as the request should get it: gzip'd where allowed and worth it (`Vary: Accept-Encoding` on every
    /// response of a type that may be), then 304 when `If-None-Match` names the copy chosen.
    func encode(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        var response = response
        if case .bytes(let body) = response.body, Self.isCompressible(response.headers["Content-Type"]),
            response.headers["Content-Encoding"] == nil
        {
            response.headers.append("Vary", "Accept-Encoding")
            if Self.acceptsGzip(request.headers["Accept-Encoding"]),
                let packed = gzip(body, tag: response.headers["ETag"])
            {
                response.body = .bytes(packed)
                response.headers.set("Content-Encoding", "gzip")
                if let tag = response.headers["ETag"] { response.headers.set("ETag", Self.gzipTag(tag)) }
            }
        }
        return Self.conditional(response, request)
    }

    /// The gzip copy of `body` when it is smaller: kept by `tag` when there is one (made once, at level 12); made
    /// now at level 6 otherwise, for a body of at least `minimumSize`.
    private func gzip(_ body: [UInt8], tag: String?) -> [UInt8]? {
        guard let tag else {
            guard body.count >= Self.minimumSize, let packed = Gzip.compress(body, level: 6) else { return nil }
            return packed.count < body.count ? packed : nil
        }
        if let known = kept.withLock({ $0[tag] }) { return known }
        let packed = Gzip.compress(body, level: 12).flatMap { $0.count < body.count ? $0 : nil }
        kept.withLock { $0[tag] = .some(packed) }
        return packed
    }

    /// `"abc"` → `"abc-gzip"`: the gzip copy is another representation, with a tag of its own.
    static func gzipTag(_ tag: String) -> String {
        tag.hasSuffix("\"") ? String(tag.dropLast()) + "-gzip\"" : tag + "-gzip"
    }

    /// A 304 (no body; the tag, caching and `Vary` fields kept) when a GET or HEAD's `If-None-Match` names the tag of
    /// a 200 (weak comparison, or `*`); else `response` as it is.
    static func conditional(_ response: HTTPResponse, _ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD", response.status == 200,
            let tag = response.headers["ETag"], let sent = request.headers["If-None-Match"],
            matches(sent, tag)
        else { return response }
        var headers = response.headers
        headers.remove("Content-Type")
        headers.remove("Content-Encoding")
        return HTTPResponse(status: 304, headers: headers)
    }

    /// True when the `If-None-Match` list `sent` names `tag` (weak comparison: `W/` ignored) or is `*`.
    static func matches(_ sent: String, _ tag: String) -> Bool {
        func opaque(_ text: Substring) -> Substring {
            let trimmed = text.trimmingPrefix(while: \.isWhitespace)
            return (trimmed.hasPrefix("W/") ? trimmed.dropFirst(2) : trimmed).prefix { !$0.isWhitespace }
        }
        let wanted = opaque(tag[...])
        return sent.split(separator: ",").contains { item in
            let candidate = opaque(item)
            return candidate == "*" || candidate == wanted
        }
    }

    /// True when `contentType` (with any parameters) is one of `compressibleTypes`.
    static func isCompressible(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return compressibleTypes.contains(type.lowercased())
    }

    /// True when an `Accept-Encoding` value allows gzip: `gzip` (or `x-gzip`) with a weight above 0, or else `*`
    /// with one; none sent means no coding is asked for, so none is used.
    static func acceptsGzip(_ acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        var gzip: Double?
        var any: Double?
        for item in acceptEncoding.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, !coding.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                if pair.count == 2, pair[0] == "q" { weight = Double(pair[1]) ?? 0 }
            }
            if coding == "gzip" || coding == "x-gzip" {
                gzip = max(gzip ?? 0, weight)
            } else if coding == "*" {
                any = weight
            }
        }
        return (gzip ?? any ?? 0) > 0
    }
}
