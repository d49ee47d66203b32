import HTTPServer
import ProspectsCore
import ProspectsIngest
import ProspectsService
import SystemCalls

/// `prospects serve`: the web front-end on an HTTP server, over the store the configuration names.
///
/// A class because it owns the running server and the thread that watches the store for changes.
public final class WebServer: Sendable {
    public let configuration: WebConfiguration
    private let server: HTTPServer
    private let application: WebApplication

    /// Opens the store (creating a missing SQLite file, as `ingest` does) and starts serving. Throws
    /// `WebServerError` for an address it must not or cannot serve on, `StoreError` for the store.
    public init(configuration: WebConfiguration) throws {
        var configuration = configuration
        let storeOption = configuration.storeOption
        let environment = configuration.environment
        let service = ProspectsService(storeOption: storeOption, environment: environment)
        // Opened now so that a store that cannot be used stops the start, not the first page.
        try service.open(create: true)
        if !HostCheck.isLoopback(configuration.host) { configuration.requiresSignIn = true }
        if configuration.requiresSignIn {
            guard try !service.accounts().isEmpty else {
                throw WebServerError.accountsRequired(host: configuration.host)
            }
        }
        var http = HTTPServerConfiguration()
        http.host = configuration.host
        http.port = configuration.port
        http.threadCount = configuration.threadCount
        http.connectionLimit = configuration.connectionLimit
        http.connectionTimeout = configuration.connectionTimeout
        http.maximumFileCount = configuration.maximumUploadFiles
        http.maximumFileSize = configuration.maximumUploadFileSize
        http.maximumFormSize = configuration.maximumUploadFiles * configuration.maximumUploadFileSize + (1 << 20)
        let uploads: UploadFolder
        do {
            uploads = try UploadFolder(
                path: configuration.uploadDirectory ?? Self.besideStore("prospects-uploads", configuration))
        } catch {
            guard case .badConfiguration(let why) = error else { throw WebServerError.uploadsUnusable(error.message) }
            throw WebServerError.uploadsUnusable(why)
        }
        http.uploadDirectory = uploads.incoming
        http.uploadTagQueryName = "receipt"
        // What a server killed mid-upload left is filed before anything new arrives.
        let recovered: Int
        do {
            recovered = try ProspectsService(storeOption: storeOption, environment: environment).recoverUploads(uploads)
        } catch let error as StoreError {
            throw error
        } catch {
            throw WebServerError.uploadsUnusable("cannot file the uploads left in \(uploads.incoming): \(error)")
        }
        if recovered > 0 {
            configuration.log?(
                "filed \(recovered) upload\(recovered == 1 ? "" : "s") left in \(uploads.incoming) by a stopped server")
        }
        if configuration.tls == nil && configuration.tlsSelfSigned {
            configuration.tls = try SelfSignedCertificate.files(
                in: configuration.tlsFolder ?? Self.besideStore("prospects-tls", configuration),
                host: configuration.host, environment: configuration.environment)
        }
        if let tls = configuration.tls {
            do {
                http.tls = try TLSCredentials(certificateFile: tls.certificate, privateKeyFile: tls.key)
            } catch {
                throw WebServerError.cannotListen(error)
            }
        }
        certificateFingerprint = http.tls.flatMap { SelfSignedCertificate.fingerprint(ofPEM: $0.certificatePEM) }
        let application = WebApplication(configuration: configuration, uploads: uploads, now: configuration.now)
        do {
            server = try HTTPServer(configuration: http, handler: application)
        } catch {
            throw WebServerError.cannotListen(error)
        }
        self.application = application
        var actual = configuration
        actual.port = server.port
        self.configuration = actual
        application.changes.start(interval: configuration.changePollInterval, generation: application.generation)
    }

    /// `name` in the SQLite store's folder; in the working folder for a PostgreSQL store.
    static func besideStore(_ name: String, _ configuration: WebConfiguration) -> String {
        guard
            case .sqlite(let path)? = try? StoreLocation.resolve(
                option: configuration.storeOption, environment: configuration.environment),
            let slash = path.lastIndex(of: "/")
        else { return name }
        return String(path[...slash]) + name
    }

    /// The port the server listens on.
    public var port: UInt16 { server.port }

    /// The address to open in a browser: the first of `urls`.
    public var url: String { urls[0] }

    /// The addresses a browser can open: the bound address; bound to every address (`0.0.0.0`, `::`), each of the
    /// machine's interface addresses and its host name (what a phone on the same network opens), then loopback.
    public var urls: [String] {
        let scheme = configuration.isTLS ? "https" : "http"
        var hosts = [configuration.host]
        if ["0.0.0.0", "::", "[::]"].contains(configuration.host) {
            // 0.0.0.0 listens on IPv4 only; `::` on both.
            let onlyIPv4 = configuration.host == "0.0.0.0"
            let addresses = MachineAddresses.interfaceAddresses().filter { !onlyIPv4 || !$0.contains(":") }
            hosts = addresses + [MachineAddresses.hostName()].compactMap { $0 } + ["127.0.0.1"]
        }
        return hosts.map { host in "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)/" }
    }

    /// The SHA-256 fingerprint of the certificate served (`AB:CD:…`), to compare with what a phone shows before
    /// accepting a self-signed one; nil without TLS.
    public let certificateFingerprint: String?

    /// Adds a new key for visitors' form tokens (see `SessionStore.rotateKey`).
    public func rotateFormKey() throws {
        try application.sessions.rotateKey()
    }

    /// How many list pages were rendered since the start: one per page and store generation, however many asked.
    public var listPageRenderCount: Int { application.pageCache.renderCount }

    /// Waits until no list page is being rendered or waiting to be: a page asked for then shows the store as it was.
    public func waitForListPageRenders() {
        application.pageCache.waitUntilIdle()
    }

    /// Stops polling the store, ends open event streams, and waits for requests in flight.
    public func stop() {
        application.changes.stop()
        server.stop(gracePeriod: .seconds(10))
    }
}
