import HTTPServer
import ProspectStore
import ProspectsService

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
        guard HostCheck.isLoopback(configuration.host) else {
            throw WebServerError.accountsRequired(host: configuration.host)
        }
        let storeOption = configuration.storeOption
        let environment = configuration.environment
        let openStore: @Sendable () throws -> any ProspectStore = {
            try ProspectsService(storeOption: storeOption, environment: environment).store(create: true)
        }
        // Opened now so that a store that cannot be used stops the start, not the first page.
        _ = try openStore()
        var http = HTTPServerConfiguration()
        http.host = configuration.host
        http.port = configuration.port
        http.threadCount = configuration.threadCount
        http.maximumFileCount = configuration.maximumUploadFiles
        http.maximumFileSize = configuration.maximumUploadFileSize
        http.maximumFormSize = configuration.maximumUploadFiles * configuration.maximumUploadFileSize + (1 << 20)
        http.uploadDirectory = configuration.uploadDirectory
        let application = WebApplication(configuration: configuration)
        do {
            server = try HTTPServer(configuration: http, handler: application)
        } catch {
            throw WebServerError.cannotListen(error)
        }
        self.application = application
        var actual = configuration
        actual.port = server.port
        self.configuration = actual
        application.changes.start(interval: configuration.changePollInterval, openStore: openStore)
    }

    /// The port the server listens on.
    public var port: UInt16 { server.port }

    /// The address to open in a browser.
    public var url: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(host):\(port)/"
    }

    /// Stops polling the store, ends open event streams, and waits for requests in flight.
    public func stop() {
        application.changes.stop()
        server.stop(gracePeriod: .seconds(10))
    }
}
