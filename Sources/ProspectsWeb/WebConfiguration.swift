/// How `prospects serve` listens, which store it serves, and what an upload may send.
public struct WebConfiguration: Sendable {
    /// The numeric address to bind; loopback unless accounts exist (see `WebServer.init`).
    public var host = "127.0.0.1"
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
    /// Where uploads are streamed while their request lasts.
    public var uploadDirectory = "/tmp"
    /// How often the server asks the store whether another process changed it (for the live list).
    public var changePollInterval: Duration = .seconds(1)
    /// Worker threads of the HTTP server.
    public var threadCount = 4
    /// Receives one line per request answered (`GET /leads/7 200 1.4 ms`): the path without its query, which may
    /// hold a search for a person's name.
    public var log: (@Sendable (String) -> Void)?

    public init() {}
}
