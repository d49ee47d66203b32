/// How a server listens, how many connections and threads it allows, and how much a request may send.
///
/// The defaults suit one machine on a trusted network; every limit is deliberate, none is libmicrohttpd's own.
public struct HTTPServerConfiguration: Sendable {
    /// The numeric IPv4 or IPv6 address to bind (`localhost` means `127.0.0.1`).
    public var host = "127.0.0.1"
    /// The port; 0 lets the system choose (the server's `port` tells which).
    public var port: UInt16 = 0
    /// Worker threads, each polling its share of the connections and running the handler.
    public var threadCount = 4
    /// Threads that answer the requests that may write (every method but GET and HEAD), off the polling threads, so
    /// that a commit waiting on the disk never holds up the connections polled beside it; 0 answers them on the
    /// polling threads.
    public var writerThreadCount = 4
    /// Open connections at most, idle ones included; more wait in the listen backlog until one closes. High, because
    /// an idle connection costs a descriptor and a few kilobytes while a full server answers no one: a thousand
    /// silent or half-sent requests (slowloris) must not stop a real one. The process's soft limit on open files is
    /// raised to fit (within the hard limit; the connections are fewer when it cannot be).
    public var connectionLimit = 10_000
    /// Open connections from one client address at most; 0 for no such limit (behind a reverse proxy every
    /// client has the proxy's address).
    public var connectionLimitPerAddress = 0
    /// Seconds a connection may stay silent before it is closed.
    public var connectionTimeout = 30
    /// Bytes of memory one connection may use for its request line, headers and read buffer.
    public var connectionMemoryLimit = 64 * 1024
    /// Bytes of body kept in memory for a request that is not a form, and of a form's text fields; more is
    /// answered 413.
    public var maximumBodySize = 1 << 20
    /// Bytes of one uploaded file at most; more is answered 413 and nothing is kept.
    public var maximumFileSize = 32 << 20
    /// Bytes of one form request at most (every field and file together); more is answered 413.
    public var maximumFormSize = 128 << 20
    /// Files in one form request at most; more is answered 413.
    public var maximumFileCount = 32
    /// Where uploaded files are streamed while their request lasts.
    public var uploadDirectory = "/tmp"
    /// A query parameter whose value (1 to 32 lowercase hex digits) is put in the names of the request's files
    /// (`upload-XXXXXX.TAG~NAME`), so that what a killed server was receiving can be told apart afterwards.
    public var uploadTagQueryName: String?
    /// HTTPS with this certificate and key; plain HTTP when nil.
    public var tls: TLSCredentials?
    /// Connections waiting to be accepted, for listen(2).
    public var listenBacklog = 511

    public init() {}
}

/// A PEM certificate (chain) and its PEM private key.
public struct TLSCredentials: Sendable, Equatable {
    public var certificatePEM: String
    public var privateKeyPEM: String

    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// Reads the certificate and the key from PEM files.
    public init(certificateFile: String, privateKeyFile: String) throws(HTTPServerError) {
        certificatePEM = try Self.read(certificateFile)
        privateKeyPEM = try Self.read(privateKeyFile)
    }

    private static func read(_ path: String) throws(HTTPServerError) -> String {
        guard let bytes = try? FileBytes.read(path) else { throw .tlsFileUnreadable(path: path) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
