import HTTPServer

extension WebApplication {
    /// What a route runs: the application and the request's context in, the answer out.
    typealias Handler = @Sendable (WebApplication, Context) throws -> HTTPResponse

    /// Every page and form of the site: method, path, the role it needs (checked by the table before a handler
    /// runs; every viewer is an admin when serve needs no accounts) and the handler. GET routes answer HEAD too.
    static let routes = RouteTable<Handler>([
        // Sessions
        .init("GET", "/signin", role: .visitor) { app, context in app.signInPage(context) },
        .init("POST", "/signin", role: .visitor) { app, context in try app.signIn(context) },
        .init("POST", "/signout", role: .staff) { app, context in try app.signOut(context) },
        // Leads
        .init("GET", "/", role: .staff) { app, context in try app.listPage(context) },
        .init("GET", "/events", role: .staff) { app, context in app.changeEvents(context) },
        .init("GET", "/leads/:id", role: .staff) { app, context in try app.leadPage(context.id, context) },
        .init("POST", "/mark", role: .staff) { app, context in
            try app.mark(app.ids(context.request.form.values(for: "id")), context)
        },
        .init("POST", "/leads/:id/mark", role: .staff) { app, context in try app.mark([context.id], context) },
        .init("POST", "/leads/:id/edit", role: .staff) { app, context in try app.edit(context.id, context) },
        .init("POST", "/leads/:id/note", role: .staff) { app, context in try app.addNote(context.id, context) },
        .init("POST", "/leads/:id/rate", role: .staff) { app, context in try app.rate(context.id, context) },
        .init("POST", "/leads/:id/tags", role: .staff) { app, context in try app.changeTags(context.id, context) },
        .init("POST", "/delete", role: .admin, purpose: "delete leads") { app, context in try app.delete(context) },
        // Reminders
        .init("GET", "/reminders", role: .staff) { app, context in try app.remindersPage(context) },
        .init("GET", "/reminders/due", role: .staff) { app, _ in try app.dueReminders() },
        .init("POST", "/leads/:id/remind", role: .staff) { app, context in try app.remind(context.id, context) },
        // Scanning
        .init("GET", "/scan", role: .staff) { app, context in app.scanPage(context) },
        .init("POST", "/scan", role: .staff) { app, context in try app.upload(context) },
        .init("POST", "/scan/frame", role: .staff) { app, context in try app.cameraFrame(context) },
        .init("POST", "/scans/sync", role: .staff) { app, context in try app.syncQueuedScans(context) },
        .init("GET", "/scans/token", role: .staff) { app, context in app.queueToken(context) },
        .init("GET", "/scan/receipts/:receipt", role: .staff) { app, context in
            app.receiptPage(context.parameters["receipt"] ?? "")
        },
        // One's own card
        .init("GET", "/me", role: .staff) { app, context in app.mePage(context) },
        .init("GET", "/me/card.png", role: .staff) { app, context in app.cardImage(context, svg: false) },
        .init("GET", "/me/card.svg", role: .staff) { app, context in app.cardImage(context, svg: true) },
        // Import and export
        .init("GET", "/export", role: .admin, purpose: "export the list") { app, context in try app.export(context) },
        .init("GET", "/import", role: .admin, purpose: "import lists") { app, context in app.importPage(context) },
        .init("POST", "/import", role: .admin, purpose: "import lists") { app, context in
            try app.importList(context)
        },
        // Accounts
        .init("GET", "/users", role: .admin, purpose: "manage users") { app, context in try app.usersPage(context) },
        .init("POST", "/users/add", role: .admin, purpose: "manage users") { app, context in
            try app.changeUsers("add", context)
        },
        .init("POST", "/users/remove", role: .admin, purpose: "manage users") { app, context in
            try app.changeUsers("remove", context)
        },
    ])
}
