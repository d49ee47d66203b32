import Foundation
import ProspectStore
import ProspectsCore
import ProspectsService
import ProspectsTestSupport
import ProspectsWeb
import WebTestSupport

/// The stores a web test can run over.
enum WebStoreKind: String, CaseIterable, Sendable {
    case sqlite, postgres
}

/// A `prospects serve` on 127.0.0.1 (port chosen by the system) over a fresh SQLite store (or a new PostgreSQL
/// database on the tests' server), and a raw HTTP client that keeps the session cookie and the form token the pages
/// hand out, as a browser would.
final class WebFixture {
    let folder: TemporaryDirectory
    /// The SQLite file's path, or the PostgreSQL database's URL: the server's `--store`.
    let storePath: String
    let location: StoreLocation
    let server: WebServer
    /// The cookies the server set, by name, as a browser keeps them.
    var cookies: [String: String] = [:]

    /// The `Cookie` header the next request sends (nil: none); set to replace every cookie.
    var cookie: String? {
        get {
            cookies.isEmpty
                ? nil : cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        set {
            cookies = [:]
            for pair in (newValue ?? "").split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2 { cookies[String(parts[0])] = String(parts[1]) }
            }
        }
    }

    /// `accounts` are added to the store before the server starts (with a low hash count, for speed). `database`: a
    /// PostgreSQL URL to serve (another fixture's, for two servers over one store) instead of a new store.
    init(
        leads: [Prospect] = [], accounts: [(name: String, role: AccountRole, password: String)] = [],
        kind: WebStoreKind = .sqlite, database: String? = nil, configure: (inout WebConfiguration) -> Void = { _ in }
    ) throws {
        folder = try TemporaryDirectory(prefix: "prospects-web-test")
        switch kind {
        case .sqlite:
            storePath = folder.file("prospects.sqlite")
            location = .sqlite(path: storePath)
        case .postgres:
            storePath = try database ?? PostgresTestServer.shared().makeDatabase()
            location = .postgres(url: storePath)
        }
        let store = try location.open()
        var seenAt = Date(timeIntervalSince1970: 1_780_000_000)
        _ = try store.record(
            leads.map { prospect in
                seenAt += 60
                return Sighting(prospect: prospect, source: "test", seenAt: seenAt)
            })
        let service = ProspectsService(location: location)
        for account in accounts {
            _ = try service.addAccount(
                name: account.name, role: account.role, password: account.password, iterations: 1_000)
        }
        let uploads = folder.file("uploads")
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: false)
        var configuration = WebConfiguration()
        configuration.port = 0
        configuration.storeOption = storePath
        configuration.threadCount = 2
        configuration.uploadDirectory = uploads
        configuration.changePollInterval = .milliseconds(100)
        configure(&configuration)
        server = try WebServer(configuration: configuration)
    }

    /// A second browser on `other`'s server (its own cookies), which does not stop the server when it goes.
    private init(sharing other: WebFixture) {
        folder = other.folder
        storePath = other.storePath
        location = other.location
        server = other.server
        owner = other
    }

    /// The fixture this one shares its server with; nil for the one that owns it.
    private var owner: WebFixture?

    /// Another browser on the same server: cookies of its own.
    static func sharingServer(of other: WebFixture) -> WebFixture { WebFixture(sharing: other) }

    deinit {
        guard owner == nil else { return }
        server.stop()
        folder.cleanup()
    }

    var port: UInt16 { server.port }
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A store connection of the test's own, to check what the server did.
    func store() throws -> any ProspectStore { try location.open() }

    /// Sends one request on a new connection, with the session cookie once one was given.
    func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [],
        host: String? = nil
    ) throws -> RawHTTPResponse {
        let client = try RawHTTPClient(port: port)
        defer { client.close() }
        var headers = headers
        if let cookie, !headers.contains(where: { $0.0 == "Cookie" }) { headers.append(("Cookie", cookie)) }
        try client.send(
            RawHTTPClient.requestBytes(method, path, host: host ?? "127.0.0.1:\(port)", headers: headers, body: body))
        let response = try client.readResponse(method: method)
        for (name, value) in response.headers where name.lowercased() == "set-cookie" {
            guard let pair = value.split(separator: ";").first else { continue }
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { cookies[String(parts[0])] = String(parts[1]) }
        }
        return response
    }

    /// GETs a page and returns it.
    func get(_ path: String) throws -> RawHTTPResponse { try request("GET", path) }

    /// The form token of the session, read from a page's hidden field.
    func csrfToken(from path: String = "/scan") throws -> String {
        let page = try get(path).text
        guard let range = page.range(of: "name=\"csrf\" value=\"") else { throw WebFixtureError.noToken }
        return String(page[range.upperBound...].prefix { $0 != "\"" })
    }

    /// POSTs a urlencoded form with the session's token (unless `token` says otherwise).
    func post(_ path: String, _ fields: [(String, String)], token: String? = nil) throws -> RawHTTPResponse {
        let token = try token ?? csrfToken()
        let all = token.isEmpty ? fields : [("csrf", token)] + fields
        let body = all.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try request(
            "POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// Signs in through the form, as a browser would; returns the answer to the POST.
    @discardableResult
    func signIn(_ name: String, _ password: String) throws -> RawHTTPResponse {
        try post("/signin", [("name", name), ("password", password)], token: try csrfToken(from: "/signin"))
    }

    /// The leads as the store holds them, by name.
    func leads() throws -> [String: StoredProspect] {
        Dictionary(try store().list(filter: .everyone, sort: .name, reverse: false).map { ($0.prospect.name, $0) }) {
            first, _ in first
        }
    }
}

/// The files waiting in an uploads folder's `.incoming/` (every server's folder in it; their lock files left out).
func uploadsWaiting(in uploads: String) -> [String] {
    let root = uploads + "/.incoming"
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    return walker.compactMap { $0 as? String }.filter { path in
        var isFolder: ObjCBool = false
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return !last.hasPrefix(".") && FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder)
            && !isFolder.boolValue
    }.sorted()
}

enum WebFixtureError: Error {
    case noToken
}

/// Twelve leads: a few named people and the rest numbered.
let sampleLeads: [Prospect] =
    [
        Prospect(name: "Ada Lovelace", email: "ada@example.org", organization: "Analytical Engines"),
        Prospect(name: "Grace Hopper", email: "grace@example.org", organization: "US Navy"),
        Prospect(name: "Björn Ødegård", email: "bjorn@example.no"),
    ] + (1...9).map { Prospect(name: "Person \($0)", email: "person\($0)@example.com") }
