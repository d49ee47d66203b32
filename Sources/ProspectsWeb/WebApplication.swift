import Foundation
import HTTPServer
import ProspectStore
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
    let services: ServicePool
    let changes = ChangeMonitor()
    /// The list pages rendered at the store's current generation.
    let pageCache = PageCache()
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
        let openStore: @Sendable () throws -> any ProspectStore = {
            try ProspectsService(storeOption: storeOption, environment: environment).store(create: false)
        }
        generation = StoreGeneration(openStore: openStore)
        sessions = SessionStore(now: now, openStore: openStore)
    }

    /// What one request has to hand: the request and the browser's session.
    struct Context {
        var request: HTTPRequest
        var session: Session
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let log = configuration.log else { return answer(request) }
        let clock = ContinuousClock()
        let start = clock.now
        let response = answer(request)
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
                response =
                    signInGate(request, session)
                    ?? withViewer(session) { post(Context(request: request, session: session)) }
            }
        } else if request.method == "GET" || request.method == "HEAD" {
            response =
                signInGate(request, session) ?? withViewer(session) { get(Context(request: request, session: session)) }
        } else {
            response = .text("Method not allowed.\n", status: 405)
            response.headers.set("Allow", "GET, HEAD, POST")
        }
        // A visitor's nonce is handed out once; a cookie a browser holds is never replaced by a GET.
        if let newNonce, !response.headers.contains(where: { $0.name == "Set-Cookie" }) {
            response.headers.append("Set-Cookie", SessionStore.formCookie(nonce: newNonce, secure: isSecure(request)))
        }
        return secured(response)
    }

    /// When serve needs accounts: 303 to the sign-in page for anything but it and the static files until signed in;
    /// the sign-in page itself 303s to the list once signed in. Nil: go on.
    private func signInGate(_ request: HTTPRequest, _ session: Session) -> HTTPResponse? {
        guard configuration.requiresSignIn else { return nil }
        let isSignIn = request.path == "/signin"
        if StaticFile.named(request.path) != nil { return nil }
        guard let name = session.account else {
            if isSignIn { return nil }
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
        return isSignIn && request.method != "POST" ? .redirect(to: "/") : nil
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

    /// True when the session's account may do what admins only may (always, when serve needs no accounts).
    private func isAdmin(_ session: Session) -> Bool {
        !configuration.requiresSignIn || session.role == .admin
    }

    private func adminsOnly(_ what: String) -> HTTPResponse {
        page(MessagePage(title: "Not allowed", message: "Only an admin may \(what).").html, status: 403)
    }

    private func secured(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        SecurityHeaders.add(to: &response.headers)
        return response
    }

    // MARK: Routes

    private func get(_ context: Context) -> HTTPResponse {
        let path = context.request.path
        if let file = StaticFile.named(path) { return file.response }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return storeCall {
            switch parts.joined(separator: "/") {
            case "": return try listPage(context)
            case "signin":
                return page(
                    SignInPage(
                        csrfToken: context.session.csrfToken,
                        next: Self.samePath(context.request.queryValue("next")) ?? ""
                    ).html)
            case "scan": return scanPage(context)
            case _ where parts.count == 3 && parts[0] == "scan" && parts[1] == "receipts":
                return receiptPage(parts[2])
            case "reminders": return try remindersPage(context)
            case "reminders/due": return try dueReminders()
            case "me": return mePage(context)
            case "me/card.png": return cardImage(context, svg: false)
            case "me/card.svg": return cardImage(context, svg: true)
            case "export": return try export(context)
            case "import": return importPage(context)
            case "users": return try usersPage(context)
            case "events":
                let stream = ResponseStream()
                changes.add(stream)
                return .eventStream(stream)
            default:
                guard let id = Self.leadID(parts, action: nil) else { return notFound() }
                return try leadPage(id, context)
            }
        }
    }

    private func post(_ context: Context) -> HTTPResponse {
        let parts = context.request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return storeCall {
            switch parts.joined(separator: "/") {
            case "mark": return try mark(ids(context.request.form.values(for: "id")), context)
            case "delete":
                guard isAdmin(context.session) else { return adminsOnly("delete leads") }
                return try delete(context)
            case "scan": return try upload(context)
            case "scan/frame": return try cameraFrame(context)
            case "import": return try importList(context)
            case "users/add": return try changeUsers("add", context)
            case "users/remove": return try changeUsers("remove", context)
            case "signin": return try signIn(context)
            case "signout":
                try sessions.remove(context.session.id)
                return .redirect(to: configuration.requiresSignIn ? "/signin" : "/")
            default:
                if let id = Self.leadID(parts, action: "mark") { return try mark([id], context) }
                if let id = Self.leadID(parts, action: "remind") { return try remind(id, context) }
                if let id = Self.leadID(parts, action: "edit") { return try edit(id, context) }
                if let id = Self.leadID(parts, action: "note") { return try addNote(id, context) }
                if let id = Self.leadID(parts, action: "rate") { return try rate(id, context) }
                if let id = Self.leadID(parts, action: "tags") { return try changeTags(id, context) }
                return notFound()
            }
        }
    }

    /// The id in `/leads/ID` (no action) or `/leads/ID/ACTION`.
    static func leadID(_ parts: [String], action: String?) -> Int64? {
        guard parts.count == (action == nil ? 2 : 3), parts[0] == "leads", let id = Int64(parts[1]), id > 0 else {
            return nil
        }
        if let action, parts[2] != action { return nil }
        return id
    }

    /// Runs a route, answering a store that fails with a page that says so (503).
    private func storeCall(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let error as StoreError {
            return page(MessagePage(title: "The store failed", message: error.message).html, status: 503)
        } catch {
            return page(MessagePage(title: "Something failed", message: "\(error)").html, status: 500)
        }
    }

    private func page(_ html: HTML, status: Int = 200) -> HTTPResponse {
        .text(html.markup, status: status, contentType: "text/html; charset=utf-8")
    }

    private func notFound() -> HTTPResponse {
        page(MessagePage(title: "Not found", message: "There is no such page or lead.").html, status: 404)
    }

    /// The `return` field as a path on this server (never another site's URL), else `fallback`.
    private func returnPath(_ context: Context, fallback: String = "/") -> String {
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

    private func ids(_ values: [String]) -> [Int64] {
        values.compactMap { Int64($0) }.filter { $0 > 0 }
    }

    // MARK: Pages

    /// The list, from `pageCache` while the store's generation has not moved since it was rendered. The generation
    /// is read before the store, so that a page is never kept under a generation newer than what it shows.
    private func listPage(_ context: Context) throws -> HTTPResponse {
        let state = ListState(query: context.request.query)
        let session = context.session
        let key = PageCache.Key(state: state, account: session.account, isAdmin: isAdmin(session))
        let generation = generation.current()
        if let generation, let cached = pageCache.page(key, generation: generation) {
            return htmlPage(cached.bytes(token: session.csrfToken))
        }
        let pageSize = configuration.pageSize
        let (counts, rows) = try services.withService { service in
            let query = state.query(pageSize: pageSize)
            return (try service.counts(matching: query), try service.list(query))
        }
        // Rendered with the placeholder for the token, in the page and in the header's sign-out form.
        let placeholder = pageCache.placeholder
        var viewer = PageLayout.viewer
        viewer?.csrfToken = placeholder
        let markup = PageLayout.$viewer.withValue(viewer) {
            ListPage(
                state: state, counts: counts, rows: rows, pageSize: pageSize, csrfToken: placeholder,
                isAdmin: key.isAdmin, generation: generation
            ).html.markup
        }
        let rendered = PageCache.Page(markup: markup, placeholder: placeholder)
        if let generation { pageCache.store(rendered, for: key, generation: generation) }
        return htmlPage(rendered.bytes(token: session.csrfToken))
    }

    private func htmlPage(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(bytes))
    }

    private func leadPage(_ id: Int64, _ context: Context) throws -> HTTPResponse {
        guard let details = try services.withService({ try $0.details(of: .id(id)) }) else { return notFound() }
        return page(
            LeadPage(details: details, csrfToken: context.session.csrfToken, canDelete: isAdmin(context.session)).html)
    }

    private func remindersPage(_ context: Context) throws -> HTTPResponse {
        let generation = generation.current()
        let groups = try services.withService { try $0.reminders(at: now()) }
        return page(RemindersPage(groups: groups, csrfToken: context.session.csrfToken, generation: generation).html)
    }

    private func scanPage(_ context: Context) -> HTTPResponse {
        var report: [UploadOutcome]?
        sessions.update(context.session.id) { session in
            report = session.uploadReport
            session.uploadReport = nil
        }
        return page(
            ScanPage(
                report: report, csrfToken: context.session.csrfToken, maximumFiles: configuration.maximumUploadFiles,
                maximumFileSize: configuration.maximumUploadFileSize, receipt: UploadFolder.newReceipt()
            ).html)
    }

    /// What the Me page's query asks for.
    enum CardRequest {
        /// No name or no email yet.
        case none
        case card(ContactCard)
        /// Why the fields make no card.
        case invalid(String)
    }

    /// The card the Me page's query describes, or why it cannot be made.
    private func card(_ request: HTTPRequest) -> CardRequest {
        let value = { (name: String) in
            request.queryValue(name).map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let name = value("name"), let email = value("email") else { return .none }
        do throws(CardError) {
            return .card(
                try ContactCard(
                    name: name, email: email, phone: value("phone"), organization: value("organization"), format: nil))
        } catch {
            switch error {
            case .invalid(let error): return .invalid(error.message)
            case .detailsNeedRicherFormat, .unreadableInFormat:
                return .invalid("this card cannot be written as a QR code that reads back as the same contact")
            }
        }
    }

    private func mePage(_ context: Context) -> HTTPResponse {
        let request = context.request
        var me = MePage(
            name: request.queryValue("name") ?? "", email: request.queryValue("email") ?? "",
            phone: request.queryValue("phone") ?? "", organization: request.queryValue("organization") ?? "")
        switch card(request) {
        case .card(let card):
            me.payload = card.payload
            let prospect = card.prospect
            var items = [("name", prospect.name), ("email", prospect.email)]
            if let phone = prospect.phone { items.append(("phone", phone)) }
            if let organization = prospect.organization { items.append(("organization", organization)) }
            me.cardQuery = URLEncoding.query(items)
        case .invalid(let message):
            me.error = message
        case .none:
            break
        }
        return page(me.html)
    }

    private func cardImage(_ context: Context, svg: Bool) -> HTTPResponse {
        guard case .card(let card) = card(context.request) else {
            return .text("A card needs a valid name and email.\n", status: 400)
        }
        do {
            if svg { return .text(try card.svg(), contentType: "image/svg+xml") }
            return HTTPResponse(headers: ["Content-Type": "image/png"], body: .bytes(try card.png(moduleSize: 8)))
        } catch {
            return .text("Cannot make the QR code: \(error)\n", status: 500)
        }
    }

    // MARK: Changes (each answered 303 to the page)

    private func mark(_ ids: [Int64], _ context: Context) throws -> HTTPResponse {
        guard let value = context.request.form["contacted"], value == "true" || value == "false" else {
            return .text("contacted must be true or false\n", status: 400)
        }
        try services.withService { service in
            for id in ids { _ = try service.setContacted(.id(id), value == "true") }
        }
        if !ids.isEmpty { changes.noteChange() }
        return .redirect(to: returnPath(context))
    }

    private func remind(_ id: Int64, _ context: Context) throws -> HTTPResponse {
        let form = context.request.form
        let path = returnPath(context, fallback: "/leads/\(id)")
        var date: Date?
        if form["clear"] == "true" {
            date = nil
        } else if let text = form["in"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let seconds = ReminderTime.parseDuration(text.trimmingCharacters(in: .whitespaces)) else {
                return page(
                    MessagePage(title: "Reminder not set", message: "“\(text)” is no duration (try 2d, 1w, 3h30m).")
                        .html, status: 400)
            }
            date = now().addingTimeInterval(seconds)
        } else if let text = form["at"], !text.isEmpty {
            // datetime-local sends `2026-12-01T09:00`, in the browser's zone (`tz`) or else the server's.
            let zone = BrowserTime.zone(form[BrowserTime.fieldName])
            guard let parsed = ReminderTime.parseDate(text.replacingOccurrences(of: "T", with: " "), timeZone: zone)
            else {
                return page(
                    MessagePage(title: "Reminder not set", message: "“\(text)” is no date this server can read.")
                        .html, status: 400)
            }
            date = parsed
        } else {
            return page(
                MessagePage(title: "Reminder not set", message: "Give a date and time, or a duration.").html,
                status: 400)
        }
        guard try services.withService({ try $0.setReminder(.id(id), at: date) }) else { return notFound() }
        changes.noteChange()
        return .redirect(to: path)
    }

    /// Who is writing: the signed-in account, else (no sign-in: one person on their own machine) the login name of
    /// the user running serve, as the CLI's `--by` defaults to.
    func author(_ session: Session) -> String {
        session.account ?? ProspectsService.loginName(environment: configuration.environment)
    }

    /// Runs one change to lead `id` (`ProspectsService`'s note, rate, tag or edit), then 303 to its page; a refused
    /// change shows the page again with the reason (400; 409 for an address another lead has, linked).
    private func changingLead(
        _ id: Int64, _ context: Context, edited: LeadPage.EditFields? = nil,
        _ change: (ProspectsService) throws(LeadChangeError) -> Void
    ) throws -> HTTPResponse {
        let outcome = services.withService { service -> LeadChangeError? in
            do throws(LeadChangeError) {
                try change(service)
                return nil
            } catch {
                return error
            }
        }
        guard let error = outcome else {
            changes.noteChange()
            return .redirect(to: "/leads/\(id)")
        }
        var status = 400
        var clash: StoredProspect?
        switch error {
        case .notFound: return notFound()
        case .store(let error): throw error
        case .emailTaken(let other):
            status = 409
            clash = other
        case .invalid, .nothingGiven: break
        }
        guard let details = try services.withService({ try $0.details(of: .id(id)) }) else { return notFound() }
        return page(
            LeadPage(
                details: details, csrfToken: context.session.csrfToken, canDelete: isAdmin(context.session),
                problem: error.message, clash: clash, edited: edited
            ).html, status: status)
    }

    private func addNote(_ id: Int64, _ context: Context) throws -> HTTPResponse {
        let text = context.request.form["text"] ?? ""
        let author = author(context.session)
        let date = now()
        return try changingLead(id, context) { service throws(LeadChangeError) in
            _ = try service.addNote(.id(id), text: text, author: author, at: date)
        }
    }

    private func rate(_ id: Int64, _ context: Context) throws -> HTTPResponse {
        guard let rating = context.request.form["rating"].flatMap(ProspectRating.init(rawValue:)) else {
            return .text("rating must be hot, warm, cold or none\n", status: 400)
        }
        return try changingLead(id, context) { service throws(LeadChangeError) in try service.setRating(.id(id), rating)
        }
    }

    /// `add` (several, separated by commas) and `remove` (one per field).
    private func changeTags(_ id: Int64, _ context: Context) throws -> HTTPResponse {
        let form = context.request.form
        let adding = form.values(for: "add").flatMap { $0.split(separator: ",").map(String.init) }
            .filter { !$0.allSatisfy(\.isWhitespace) }
        let removing = form.values(for: "remove")
        return try changingLead(id, context) { service throws(LeadChangeError) in
            _ = try service.changeTags(.id(id), adding: adding, removing: removing)
        }
    }

    /// The edit form sends every field; only those that differ from the lead's are changed (an empty phone,
    /// organisation or title clears it), so that an address left as it was is not re-keyed.
    private func edit(_ id: Int64, _ context: Context) throws -> HTTPResponse {
        guard let current = try services.withService({ try $0.details(of: .id(id)) })?.stored.prospect else {
            return notFound()
        }
        let form = context.request.form
        func typed(_ name: String) -> String? {
            form[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        func clearable(_ name: String, _ now: String?) -> String?? {
            guard let value = typed(name), value != (now ?? "") else { return .none }
            return .some(value.isEmpty ? nil : value)
        }
        var change = ProspectEdit()
        if let name = typed("name"), name != current.name { change.name = name }
        if let email = typed("email"), email != current.email { change.email = email }
        change.phone = clearable("phone", current.phone)
        change.organization = clearable("organization", current.organization)
        change.title = clearable("title", current.title)
        guard change != ProspectEdit() else { return .redirect(to: "/leads/\(id)") }
        let edited = LeadPage.EditFields(
            name: form["name"] ?? "", email: form["email"] ?? "", phone: form["phone"] ?? "",
            organization: form["organization"] ?? "", title: form["title"] ?? "")
        return try changingLead(id, context, edited: edited) { service throws(LeadChangeError) in
            _ = try service.edit(.id(id), change)
        }
    }

    /// Without `confirmed`, the page that asks; with it, the deletion.
    private func delete(_ context: Context) throws -> HTTPResponse {
        let ids = ids(context.request.form.values(for: "id"))
        let back = returnPath(context)
        guard context.request.form["confirmed"] == "true" else {
            let leads = try services.withService { service in
                try ids.compactMap { try service.details(of: .id($0))?.stored }
            }
            return page(
                DeleteConfirmationPage(leads: leads, returnPath: back, csrfToken: context.session.csrfToken).html)
        }
        try services.withService { service in
            try service.delete(ids.map { .id($0) }) { _, _ in }
        }
        if !ids.isEmpty { changes.noteChange() }
        // A lead's own page is gone with it.
        return .redirect(to: back.hasPrefix("/leads/") ? "/" : back)
    }

    // MARK: Export and import (admins only)

    /// The list as the list page's query selects it (every page of it), in `format`, as a download. The same
    /// writers as `prospects export` (CSV formula-guarded).
    private func export(_ context: Context) throws -> HTTPResponse {
        guard isAdmin(context.session) else { return adminsOnly("export the list") }
        guard let format = context.request.queryValue("format").flatMap(ExportFormat.init(rawValue:)) else {
            return .text("format must be csv, json or vcard\n", status: 400)
        }
        var profile: CSVProfile?
        if let name = context.request.queryValue("profile"), !name.isEmpty {
            guard format == .csv, let named = CSVProfile(rawValue: name) else {
                return .text("profile must be hubspot, salesforce or google, with format=csv\n", status: 400)
            }
            profile = named
        }
        let query = ListState(query: context.request.query).query(pageSize: nil)
        // Opened here, so that a store that cannot be read is answered 503 rather than with a download cut short.
        _ = try services.withService { service in try service.store() }
        // Streamed from a thread of its own, which holds about 256 KB ahead of the client: the list is never in
        // memory whole, and a client that leaves stops the export. A store failing part-way cuts the download.
        let stream = ResponseStream()
        let services = services
        let chosenProfile = profile
        let thread = Thread {
            do {
                _ = try services.withService { service in
                    try service.export(
                        query, format: format, guardsFormulas: true, profile: chosenProfile,
                        to: .stream { chunk in stream.write(chunk, holdingAtMost: 256 << 10) })
                }
                stream.finish()
            } catch {
                stream.fail()
            }
        }
        thread.name = "prospects-export"
        thread.start()
        var response = HTTPResponse(body: .stream(stream))
        response.headers.set("Content-Type", Self.contentType(format))
        response.headers.set(
            "Content-Disposition",
            "attachment; filename=\"prospects\(profile.map { "-" + $0.rawValue } ?? "").\(format.fileExtension)\"")
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    static func contentType(_ format: ExportFormat) -> String {
        switch format {
        case .csv: "text/csv; charset=utf-8"
        case .json: "application/jsonl; charset=utf-8"
        case .vcard: "text/vcard; charset=utf-8"
        }
    }

    private func importPage(_ context: Context) -> HTTPResponse {
        guard isAdmin(context.session) else { return adminsOnly("import lists") }
        var report: ImportPage.Report?
        sessions.update(context.session.id) { session in
            report = session.importReport
            session.importReport = nil
        }
        return page(ImportPage(report: report, csrfToken: context.session.csrfToken).html)
    }

    /// The list through `ProspectsService.importList`, as `prospects import` does it (exactly once: the same list
    /// again counts nobody twice); its rows record the event given and the signed-in account. 303 to the report.
    private func importList(_ context: Context) throws -> HTTPResponse {
        guard isAdmin(context.session) else { return adminsOnly("import lists") }
        let form = context.request.form
        guard let file = form.files.first(where: { $0.fieldName == "list" && $0.size > 0 }) else {
            return .redirect(to: "/import")
        }
        let name = file.fileName.isEmpty ? "list" : file.fileName
        var report = ImportPage.Report(fileName: name, summary: "", problems: [], failed: false)
        func finish() -> HTTPResponse {
            let done = report
            sessions.update(context.session.id) { $0.importReport = done }
            return .redirect(to: "/import")
        }
        let given = form["format"].flatMap { $0.isEmpty ? nil : ImportFormat(rawValue: $0) }
        guard
            let format = given ?? ProspectsService.importFormat(ofFileAt: file.path)
                ?? ImportFormat(fileName: name)
        else {
            report.summary = "give the format: the file's content and name do not say (CSV, vCard or JSON Lines)"
            report.failed = true
            return finish()
        }
        let event = form["event"].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        var request = ListImport.Request(
            path: file.path, format: format,
            context: CollectionContext(event: event, collectedBy: author(context.session)))
        request.displayName = name
        let outcome = services.withService { service -> Result<ListImport.Summary, ListImport.Failure> in
            Result { () throws(ListImport.Failure) in
                try service.importList(request) { event in
                    switch event {
                    case .waitingForOtherImport: break
                    case .rejected(let rejection): report.problems.append("\(rejection.line): \(rejection.message)")
                    case .ignoredCell(let line, let what):
                        report.problems.append("\(line): \(what); the row was imported without it")
                    }
                }
            }
        }
        switch outcome {
        case .success(let summary):
            report.summary = summary.countsLine
            if let before = summary.importedBefore {
                report.summary +=
                    ", \(summary.totals.alreadyIn) already in (the same list was imported on "
                    + "\(LocalTime.text(before.processedAt)))"
            }
            changes.noteChange()
        case .failure(let failure):
            report.failed = true
            switch failure {
            case .cannotOpen(let error): report.summary = error.message
            case .cannotHash(let error): report.summary = "cannot read the list: \(error)"
            case .storeUnavailable(let error): throw error
            case .cannotReadOn(let error, let progress):
                report.summary =
                    error.message + (progress.committed.rows > 0 ? "; the rows before it were imported" : "")
                changes.noteChange()
            case .storeFailed(let error, _): throw error
            case .interrupted:
                report.summary = "interrupted; import the same file again to finish it (nobody is counted twice)"
            }
        }
        return finish()
    }

    // MARK: Accounts (admins only)

    private func usersPage(_ context: Context, message: String? = nil, problem: String? = nil, typedName: String = "")
        throws -> HTTPResponse
    {
        guard isAdmin(context.session) else { return adminsOnly("manage users") }
        let accounts = try services.withService { try $0.accounts() }
        return page(
            UsersPage(
                accounts: accounts, csrfToken: context.session.csrfToken, viewer: context.session.account,
                message: message, problem: problem, typedName: typedName
            ).html, status: problem == nil ? 200 : 400)
    }

    /// `prospects user add` and `user remove`, from the users page's forms.
    private func changeUsers(_ action: String, _ context: Context) throws -> HTTPResponse {
        guard isAdmin(context.session) else { return adminsOnly("manage users") }
        let form = context.request.form
        let name = form["name"] ?? ""
        var role: AccountRole?
        if action == "add" {
            guard let chosen = form["role"].flatMap(AccountRole.init(rawValue:)) else {
                return .text("role must be staff or admin\n", status: 400)
            }
            role = chosen
        }
        let failure = services.withService { service -> AccountError? in
            do throws(AccountError) {
                if let role {
                    _ = try service.addAccount(name: name, role: role, password: form["password"] ?? "")
                } else {
                    try service.removeAccount(named: name)
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            if case .store(let error) = failure { throw error }
            return try usersPage(context, problem: failure.message, typedName: role == nil ? "" : name)
        }
        return .redirect(to: "/users")
    }

    /// Checks a name and password, unless `SignInThrottle` says to wait (429 with `Retry-After`); on success the
    /// session is replaced by a new one signed in (its cookie in the answer) and the browser goes where it asked.
    private func signIn(_ context: Context) throws -> HTTPResponse {
        guard configuration.requiresSignIn else { return .redirect(to: "/") }
        let name = context.request.form["name"] ?? ""
        let password = context.request.form["password"] ?? ""
        let address = clientAddress(context.request)
        let time = now()
        if let retry = limiter.withLock({ $0.retryTime(account: name, address: address, at: time) }) {
            let seconds = max(1, Int(retry.timeIntervalSince(time).rounded(.up)))
            let wait =
                seconds < 120 ? "\(seconds) second\(seconds == 1 ? "" : "s")" : "\((seconds + 59) / 60) minutes"
            var response = page(
                SignInPage(
                    csrfToken: context.session.csrfToken,
                    problem: "Too many failed attempts for this name; try again in \(wait).", name: name,
                    next: Self.samePath(context.request.form["next"]) ?? ""
                ).html, status: 429)
            response.headers.set("Retry-After", String(Int(retry.timeIntervalSince(time).rounded(.up))))
            return response
        }
        let account = try services.withService { service in try service.authenticate(name: name, password: password) }
        guard let account else {
            limiter.withLock { $0.recordFailure(account: name, address: address, at: time) }
            return page(
                SignInPage(
                    csrfToken: context.session.csrfToken, problem: "Wrong name or password.", name: name,
                    next: Self.samePath(context.request.form["next"]) ?? ""
                ).html, status: 401)
        }
        limiter.withLock { $0.recordSuccess(account: name, address: address) }
        let session = try sessions.rotate(context.session.id, signingIn: account)
        var response = HTTPResponse.redirect(to: Self.samePath(context.request.form["next"]) ?? "/")
        response.headers.append("Set-Cookie", SessionStore.cookie(for: session, secure: isSecure(context.request)))
        return response
    }

    /// The pictures through `ProspectsService.upload` (kept in the uploads folder, each with its outcome), then 303
    /// to the scan page, which shows the outcomes.
    private func upload(_ context: Context) throws -> HTTPResponse {
        let files = context.request.form.files.filter { $0.fieldName == "pictures" && $0.size > 0 }
        guard !files.isEmpty else { return .redirect(to: "/scan") }
        let report = try services.withService { service in
            try service.upload(
                files.map { PictureUpload(path: $0.path, clientName: $0.fileName) }, into: uploads,
                context: CollectionContext(collectedBy: author(context.session)))
        }
        changes.noteChange()
        if let id = context.request.queryValue("receipt"), UploadFolder.isReceipt(id) {
            // Best effort: the answer below says it all; the receipt is for a phone that never got it.
            try? services.withService { service in
                try service.saveReceipt(UploadReceipt(id: id, state: .answered, files: report), in: uploads)
            }
        }
        sessions.update(context.session.id) { $0.uploadReport = report }
        return .redirect(to: "/scan")
    }

    /// What the upload given receipt `id` became, for a phone whose answer never came.
    private func receiptPage(_ id: String) -> HTTPResponse {
        let receipt = services.withService { service in service.receipt(id, in: uploads) }
        return page(ReceiptPage(id: id, receipt: receipt).html, status: receipt == nil ? 404 : 200)
    }
}
