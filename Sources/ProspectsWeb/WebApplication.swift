import Foundation
import HTTPServer
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import ProspectsService
import QRDecoding
import SafeHTML
import SystemCalls

/// The web front-end: turns requests into calls of the application layer and its answers into pages. It checks,
/// before anything else, that the `Host` names this server (DNS rebinding) and that every POST carries its
/// session's token (CSRF); every response carries the security headers.
final class WebApplication: HTTPHandler {
    let configuration: WebConfiguration
    let hostCheck: HostCheck
    let sessions: SessionStore
    /// gzip for browsers that take it, and 304 for what they hold (`ResponseCompression`).
    let compression = ResponseCompression()
    let services: ServicePool
    let changes = ChangeMonitor()
    /// The list pages rendered, each at the store's generation it shows.
    let pageCache: PageCache
    let generation: StoreGeneration
    /// Where every upload is kept: archive, quarantine, and `.incoming/` while its request lasts.
    let uploads: UploadFolder
    let limiter = Locked(SignInThrottle())
    let now: @Sendable () -> Date

    init(
        configuration: WebConfiguration, uploads: UploadFolder, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        self.uploads = uploads
        self.hostCheck = HostCheck(boundHost: configuration.host)
        self.now = now
        let storeOption = configuration.storeOption
        let environment = configuration.environment
        services = ServicePool { ProspectsService(storeOption: storeOption, environment: environment) }
        generation = StoreGeneration(storeOption: storeOption, environment: environment)
        sessions = SessionStore(
            now: now, records: SessionRecords(storeOption: storeOption, environment: environment))
        pageCache = PageCache(refreshed: { [changes] in changes.noteChange() })
    }

    /// What one request has to hand: the request, the browser's session, and the route's path parameters.
    struct Context {
        var request: HTTPRequest
        var session: Session
        /// By name, as the route's pattern names them (`receipt` for `:receipt`).
        var parameters: [String: String] = [:]

        /// The route's `:id`: the table matches only a positive integer there (0 for a route without one).
        var id: Int64 { parameters["id"].flatMap { Int64($0) } ?? 0 }
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let log = configuration.log else { return compression.encode(answer(request), for: request) }
        let clock = ContinuousClock()
        let start = clock.now
        let response = compression.encode(answer(request), for: request)
        let elapsed = (clock.now - start) / .microseconds(1)
        let milliseconds = (elapsed / 100).rounded() / 10
        log("\(request.method) \(request.path) \(response.status) \(milliseconds) ms")
        return response
    }

    /// A request the HTTP server refused before it reached `respond` (a body over the limit, a malformed form): a
    /// page that says what to do, with the security headers, logged as every answer is.
    func refused(_ refusal: HTTPRefusal) -> HTTPResponse {
        configuration.log?("\(refusal.method) \(refusal.path) \(refusal.status) refused: \(refusal.message)")
        if refusal.message == HTTPRefusal.plainHTTPOnTLSPort {
            return secured(page(plainHTTPPage(refusal), status: 400))
        }
        let message: MessagePage
        switch refusal.status {
        case 413:
            let size = configuration.maximumUploadFileSize >> 20
            message = MessagePage(
                title: "Too large",
                message: "That was more than this server takes at once: up to \(configuration.maximumUploadFiles) "
                    + "pictures of at most \(size) MB each. Nothing of it was kept. Go back and send fewer or "
                    + "smaller pictures.")
        case 400:
            message = MessagePage(
                title: "Not understood",
                message: "The form that was sent could not be read (\(refusal.message)). Go back, reload the page, "
                    + "and send it again.")
        default:
            message = MessagePage(
                title: "Something failed",
                message: "The server could not take that request (\(refusal.message)). Go back and try again.")
        }
        return secured(page(message.html, status: refusal.status))
    }

    /// The answer to `http://` sent to the HTTPS port: the same address with `https://`, as a link (the Host named,
    /// when it is one this server answers to; the path, when it is one of this server's).
    private func plainHTTPPage(_ refusal: HTTPRefusal) -> HTML {
        let host = refusal.headers["Host"].flatMap { hostCheck.allows($0) ? $0 : nil }
        let url = host.map { "https://" + $0 + (Self.samePath(refusal.path) ?? "/") }
        return PageLayout.page(title: "Use https://", section: nil) {
            HTML.h1 { "This address speaks HTTPS" }
            HTML.p {
                "The page was asked for with http://, but this server only answers https:// here. "
                if let url {
                    "Open "
                    HTML.a(.href(url), .id("https-link")) { url }
                    " instead."
                } else {
                    "Open the same address with https:// in front."
                }
            }
        }
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        guard hostCheck.allows(request.headers["Host"]) else {
            return secured(
                page(
                    MessagePage(
                        title: "Wrong address",
                        message: "This server does not answer to the name “\(request.headers["Host"] ?? "")”: a page "
                            + "of another site may not read it. Open it by the address `prospects serve` printed."
                    ).html, status: 421))
        }
        // The stylesheet and scripts need no session: a browser's first visit fetches them before its cookie is
        // set, and each would otherwise begin one in the store.
        if request.method == "GET" || request.method == "HEAD", let file = StaticFile.named(request.path) {
            return secured(file.response)
        }
        if request.method == "GET" || request.method == "HEAD", request.path == ZBarModule.path {
            return secured(ZBarModule.response)
        }
        if request.method == "GET" || request.method == "HEAD", let icon = AppIcon.named(request.path) {
            return secured(icon.response)
        }
        // A signed-in session is found in the store; anyone else is a visitor, whose form token is signed rather
        // than stored: a request without a cookie writes nothing.
        var newNonce: String?
        let session: Session
        do {
            if let known = try sessions.session(id: request.cookie(SessionStore.cookieName)) {
                session = known
            } else {
                (session, newNonce) = try sessions.visitor(nonce: request.cookie(SessionStore.formCookieName))
            }
        } catch {
            return secured(storeCall { throw error })
        }
        var response: HTTPResponse
        if request.method == "POST" {
            let sent = request.form["csrf"] ?? ""
            let valid: Bool
            do {
                if session.isVisitor {
                    valid = try newNonce == nil && sessions.isValidToken(sent, for: session)
                } else {
                    valid = SessionStore.sameToken(sent, session.csrfToken)
                }
            } catch {
                return secured(storeCall { throw error })
            }
            if !valid {
                response = page(
                    MessagePage(
                        title: "Form expired",
                        message: "This form was not sent from a page of this server, or the server restarted since. "
                            + "Go back, reload the page, and send it again."
                    ).html, status: 403)
            } else {
                response = route(request, session)
                // Whatever the form changed shows on this session's next list page (read your writes).
                if response.status < 400 { pageCache.noteWrite(by: session.id, generation: generation.current()) }
            }
        } else {
            response = route(request, session)
        }
        // A visitor's nonce is handed out once; a cookie a browser holds is never replaced by a GET.
        if let newNonce, !response.headers.contains(where: { $0.name == "Set-Cookie" }) {
            response.headers.append("Set-Cookie", SessionStore.formCookie(nonce: newNonce, secure: isSecure(request)))
        }
        return secured(response)
    }

    /// The request through `routes`: a path known by other methods is 405 (with `Allow`); then the sign-in gate;
    /// then the role the route needs (403 naming what only an admin may do), or 404 for a path no route has.
    private func route(_ request: HTTPRequest, _ session: Session) -> HTTPResponse {
        let resolution = Self.routes.resolve(request.method, request.path, as: role(of: session))
        if case .methodNotAllowed(let allowed) = resolution {
            var response = HTTPResponse.text("Method not allowed.\n", status: 405)
            response.headers.set("Allow", allowed.joined(separator: ", "))
            return response
        }
        if let gate = signInGate(request, session, resolution) { return gate }
        return withViewer(session) {
            switch resolution {
            case .route(let route, let parameters):
                let context = Context(request: request, session: session, parameters: parameters)
                return storeCall { try route.handler(self, context) }
            case .refused(let route): return adminsOnly(route.purpose)
            case .notFound, .methodNotAllowed: return notFound()
            }
        }
    }

    /// When serve needs accounts: 303 to the sign-in page for anything but the routes a visitor may take (and the
    /// static files, answered before) until signed in, unknown paths too, so that a visitor learns nothing of which
    /// leads exist; a session whose account was removed or changed role is signed out. Nil: go on.
    private func signInGate(
        _ request: HTTPRequest, _ session: Session, _ resolution: RouteTable<Handler>.Resolution
    ) -> HTTPResponse? {
        guard configuration.requiresSignIn else { return nil }
        guard let name = session.account else {
            if case .route = resolution { return nil }
            // A page asked for is where the sign-in lands.
            guard request.method != "POST", request.path != "/" || !request.query.isEmpty else {
                return .redirect(to: "/signin")
            }
            return .redirect(to: "/signin?next=" + URLEncoding.queryValue(Self.pathWithQuery(request)))
        }
        // An account removed (`user remove`) or whose role changed signs out of the sessions it had.
        do {
            let account = try services.withService { service in try service.account(named: name) }
            guard let account, account.role == session.role else {
                try sessions.remove(session.id)
                return .redirect(to: "/signin")
            }
        } catch {
            return storeCall { throw error }
        }
        return nil
    }

    /// The client's address: the connection's, or behind a trusted proxy the last of `X-Forwarded-For` (the one the
    /// proxy saw; those before it are what the client claimed).
    func clientAddress(_ request: HTTPRequest) -> String {
        guard configuration.trustProxy, let forwarded = request.headers["X-Forwarded-For"],
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        else { return request.remoteAddress }
        return last
    }

    /// Whether the browser reached this server over HTTPS (its own TLS, or a trusted proxy's): cookies are Secure.
    func isSecure(_ request: HTTPRequest) -> Bool {
        configuration.isTLS
            || (configuration.trustProxy && request.headers["X-Forwarded-Proto"]?.lowercased() == "https")
    }

    /// Runs `body` with the signed-in account bound for the page header.
    private func withViewer(_ session: Session, _ body: () -> HTTPResponse) -> HTTPResponse {
        guard let account = session.account else { return body() }
        return PageLayout.$viewer.withValue(
            PageLayout.Viewer(account: account, csrfToken: session.csrfToken, isAdmin: session.role == .admin),
            operation: body)
    }

    /// The role a session holds for `routes`: every viewer is an admin when serve needs no accounts.
    func role(of session: Session) -> RouteRole {
        guard configuration.requiresSignIn else { return .admin }
        guard session.account != nil else { return .visitor }
        return session.role == .admin ? .admin : .staff
    }

    private func adminsOnly(_ what: String) -> HTTPResponse {
        page(MessagePage(title: "Not allowed", message: "Only an admin may \(what).").html, status: 403)
    }

    private func secured(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        SecurityHeaders.add(to: &response.headers)
        return response
    }

    /// Runs a route, answering a store that fails with a page that says so (503).
    func storeCall(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let error as StoreError {
            return page(MessagePage(title: "The store failed", message: error.message).html, status: 503)
        } catch {
            return page(MessagePage(title: "Something failed", message: "\(error)").html, status: 500)
        }
    }

    func page(_ html: HTML, status: Int = 200) -> HTTPResponse {
        .text(html.markup, status: status, contentType: "text/html; charset=utf-8")
    }

    func notFound() -> HTTPResponse {
        page(MessagePage(title: "Not found", message: "There is no such page or lead.").html, status: 404)
    }

    /// The `return` field as a path on this server (never another site's URL), else `fallback`.
    func returnPath(_ context: Context, fallback: String = "/") -> String {
        Self.samePath(context.request.form["return"]) ?? fallback
    }

    /// `text` when it is a path on this server: starts with one `/`, no `\\` (which browsers read as `/`, so `/\\x`
    /// is `//x`, another host), no control characters or spaces; nil for anything else (`//evil`, `https://…`).
    static func samePath(_ text: String?) -> String? {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\"), text.utf8.count <= 2048,
            !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
        else { return nil }
        return text
    }

    /// The request's path and query as the browser asked for them, to come back to after sign-in.
    static func pathWithQuery(_ request: HTTPRequest) -> String {
        request.query.isEmpty
            ? request.path
            : request.path + "?"
                + request.query.map { URLEncoding.queryValue($0.name) + "=" + URLEncoding.queryValue($0.value) }
                .joined(separator: "&")
    }
}
