import Foundation
import HTTPServer
import ProspectsCore
import ProspectsService
import SafeHTML

/// The leads: the list page, one lead's page, and the changes made to leads (each answered 303 to the page).
extension WebApplication {
    /// The list, from `pageCache` (see there: one render per page and store generation, writers see their writes).
    func listPage(_ context: Context) throws -> HTTPResponse {
        let session = context.session
        let key = PageCache.Key(
            state: ListState(query: context.request.query), account: session.account,
            isAdmin: role(of: session) == .admin)
        let renderer = ListPageRenderer(
            services: services, pageSize: configuration.pageSize, placeholder: pageCache.placeholder)
        let viewer = PageLayout.viewer
        let page = try pageCache.page(key, session: session.id, current: generation.current) { generation in
            try renderer.render(key, viewer: viewer, generation: generation)
        }
        return htmlPage(page.bytes(token: session.csrfToken))
    }

    func htmlPage(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(bytes))
    }

    func leadPage(_ id: Int64, _ context: Context) throws -> HTTPResponse {
        guard let details = try services.withService({ try $0.details(of: .id(id)) }) else { return notFound() }
        return page(
            LeadPage(
                details: details, csrfToken: context.session.csrfToken, canDelete: role(of: context.session) == .admin
            ).html)
    }

    func mark(_ ids: [Int64], _ context: Context) throws -> HTTPResponse {
        guard let value = context.request.form["contacted"], value == "true" || value == "false" else {
            return .text("contacted must be true or false\n", status: 400)
        }
        try services.withService { service in
            for id in ids { _ = try service.setContacted(.id(id), value == "true") }
        }
        if !ids.isEmpty { changes.noteChange() }
        return .redirect(to: returnPath(context))
    }

    /// Who is writing: the signed-in account, else (no sign-in: one person on their own machine) the login name of
    /// the user running serve, as the CLI's `--by` defaults to.
    func author(_ session: Session) -> String {
        session.account ?? ProspectsService.loginName(environment: configuration.environment)
    }

    /// Runs one change to lead `id` (`ProspectsService`'s note, rate, tag or edit), then 303 to its page; a refused
    /// change shows the page again with the reason (400; 409 for an address another lead has, linked).
    func changingLead(
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
                details: details, csrfToken: context.session.csrfToken, canDelete: role(of: context.session) == .admin,
                problem: error.message, clash: clash, edited: edited
            ).html, status: status)
    }

    func addNote(_ id: Int64, _ context: Context) throws -> HTTPResponse {
        let text = context.request.form["text"] ?? ""
        let author = author(context.session)
        let date = now()
        return try changingLead(id, context) { service throws(LeadChangeError) in
            _ = try service.addNote(.id(id), text: text, author: author, at: date)
        }
    }

    func rate(_ id: Int64, _ context: Context) throws -> HTTPResponse {
        guard let rating = context.request.form["rating"].flatMap(ProspectRating.init(rawValue:)) else {
            return .text("rating must be hot, warm, cold or none\n", status: 400)
        }
        return try changingLead(id, context) { service throws(LeadChangeError) in try service.setRating(.id(id), rating)
        }
    }

    /// `add` (several, separated by commas) and `remove` (one per field).
    func changeTags(_ id: Int64, _ context: Context) throws -> HTTPResponse {
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
    func edit(_ id: Int64, _ context: Context) throws -> HTTPResponse {
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

    /// The list pages' change events (Server-Sent Events), so that a page showing leads knows when the store changed.
    func changeEvents(_ context: Context) -> HTTPResponse {
        let stream = ResponseStream()
        changes.add(stream, shown: context.request.queryValue("shown"))
        return .eventStream(stream)
    }

    /// Without `confirmed`, the page that asks; with it, the deletion.
    func delete(_ context: Context) throws -> HTTPResponse {
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

    func ids(_ values: [String]) -> [Int64] {
        values.compactMap { Int64($0) }.filter { $0 > 0 }
    }
}
