import Foundation

/// How `prospects serve` listens, which store it serves, and what an upload may send.
public struct WebConfiguration: Sendable {
    /// The numeric address to bind; loopback unless accounts exist (see `WebServer.init`).
    public var host = "127.0.0.1"
    /// Whether every page but sign-in needs a signed-in account. `WebServer` sets it for an address other than
    /// loopback, where it also needs at least one account in the store.
    public var requiresSignIn = false
    /// The certificate and private key (PEM) to serve HTTPS with; nil: plain HTTP.
    public var tls: TLSFiles?
    /// Serve HTTPS with a certificate made once by `openssl` and kept in `tlsFolder` (ignored when `tls` is set).
    public var tlsSelfSigned = false
    /// Where `tlsSelfSigned` keeps its certificate. Unset: `prospects-tls` beside the SQLite store, or in the
    /// working folder for PostgreSQL.
    public var tlsFolder: String?
    /// The port; 0 lets the system choose.
    public var port: UInt16 = 8080
    /// The store named by `--store`, else `PROSPECTS_STORE` in `environment`, else `./prospects.sqlite`.
    public var storeOption: String?
    public var environment: [String: String] = [:]
    /// Rows on one page of the list.
    public var pageSize = 50
    /// Pictures in one upload at most (more: 413, nothing stored).
    public var maximumUploadFiles = 20
    /// Bytes of one uploaded picture at most (more: 413, nothing stored).
    public var maximumUploadFileSize = 25 << 20
    /// The folder that keeps every upload: `archive/`, `rejected/` (each with its reason) and `.incoming/` while its
    /// request lasts. Unset: `prospects-uploads` beside the SQLite store, or in the working folder for PostgreSQL.
    public var uploadDirectory: String?
    /// How often the server asks the store whether another process changed it (for the live list).
    public var changePollInterval: Duration = .seconds(1)
    /// Worker threads of the HTTP server.
    public var threadCount = 4
    /// Open connections at most, idle ones included: high, so that a thousand idle connections do not stop a real
    /// request (see `HTTPServerConfiguration.connectionLimit`).
    public var connectionLimit = 10_000
    /// Seconds a connection may stay silent (kept alive, or in the middle of its request head) before it is closed.
    public var connectionTimeout = 30
    /// Receives one line per request answered (`GET /leads/7 200 1.4 ms`): the path without its query, which may
    /// hold a search for a person's name.
    public var log: (@Sendable (String) -> Void)?
    /// Behind a reverse proxy: the client's address is the last of `X-Forwarded-For` (what the proxy saw), and
    /// `X-Forwarded-Proto: https` makes cookies Secure. Off, both headers are ignored (anyone can send them).
    public var trustProxy = false
    /// The clock pages, sessions and the sign-in throttle read (a test's own, to decide without sleeping).
    public var now: @Sendable () -> Date = Date.init

    public init() {}

    /// Whether pages are served over HTTPS (cookies are then `Secure`).
    var isTLS: Bool { tls != nil || tlsSelfSigned }
}

/// The PEM files of a server certificate and its private key.
public struct TLSFiles: Sendable, Hashable {
    public var certificate: String
    public var key: String

    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}
