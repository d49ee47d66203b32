import HTTPServer

/// The headers every response carries: scripts only from this origin and never inline, no framing, no sniffing.
/// Workers (the offline service worker, the decoder) and the app manifest come from this origin too.
enum SecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "worker-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// The scan worker's policy: the pages' plus compiling WebAssembly (`'wasm-unsafe-eval'`, which allows no
    /// `eval` of JavaScript), which a worker's own response decides in Chromium.
    static let webAssemblyWorkerPolicy =
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; base-uri 'none'"

    /// Sets every header; a `Content-Security-Policy` or `Cache-Control` already set is kept.
    static func add(to headers: inout HTTPHeaders) {
        if headers["Content-Security-Policy"] == nil { headers.set("Content-Security-Policy", contentSecurityPolicy) }
        headers.set("X-Content-Type-Options", "nosniff")
        headers.set("X-Frame-Options", "DENY")
        headers.set("Referrer-Policy", "same-origin")
        if headers["Cache-Control"] == nil { headers.set("Cache-Control", "no-store") }
    }
}
