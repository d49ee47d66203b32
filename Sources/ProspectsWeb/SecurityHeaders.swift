import HTTPServer

/// The headers every response carries: scripts only from this origin and never inline, no framing, no sniffing.
/// Workers (the offline service worker, the decoder) and the app manifest come from this origin too.
enum SecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "worker-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static func add(to headers: inout HTTPHeaders) {
        headers.set("Content-Security-Policy", contentSecurityPolicy)
        headers.set("X-Content-Type-Options", "nosniff")
        headers.set("X-Frame-Options", "DENY")
        headers.set("Referrer-Policy", "same-origin")
        if headers["Cache-Control"] == nil { headers.set("Cache-Control", "no-store") }
    }
}
