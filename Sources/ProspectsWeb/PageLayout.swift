import SafeHTML

/// The frame of every page: the head, the navigation, and the stylesheet and script files (no inline script, no
/// inline style: the content security policy refuses both).
enum PageLayout {
    enum Section: String, CaseIterable {
        case list = "Leads"
        case scan = "Scan"
        case reminders = "Reminders"
        case me = "Me"
        case users = "Users"

        var path: String {
            switch self {
            case .list: "/"
            case .scan: "/scan"
            case .reminders: "/reminders"
            case .me: "/me"
            case .users: "/users"
            }
        }
    }

    /// Who is signed in on the request being answered, and their session's form token: the header then shows the
    /// name and a sign-out button. Bound by `WebApplication` around each request, so no page has to pass it on.
    struct Viewer: Sendable {
        var account: String
        var csrfToken: String
        /// Admins see the users page in the navigation.
        var isAdmin = false
    }

    @TaskLocal static var viewer: Viewer?

    /// A whole page. `live`: the page reloads itself when the list changes (see `StaticFile.liveUpdates`);
    /// `generation`: the store's change generation it shows, so that the change it already shows reloads nothing.
    /// `scripts`: the page's own script files, beside the ones every page loads. `sections`: false for a page that
    /// leads nowhere else (sign-in): no bottom bar.
    static func page(
        title: String, section: Section?, live: Bool = false, generation: Int64? = nil, scripts: [StaticFile] = [],
        sections: Bool = true, @HTMLBuilder content: () -> HTML
    ) -> HTML {
        let head = HTML {
            HTML.meta(.attribute("charset", "utf-8"))
            HTML.meta(.name("viewport"), .attribute("content", "width=device-width, initial-scale=1"))
            HTML.title { "\(title) · Prospects" }
            HTML.link(.attribute("rel", "stylesheet"), .href(StaticFile.stylesheet.path))
            HTML.link(.attribute("rel", "manifest"), .href(StaticFile.manifest.path))
            HTML.link(.attribute("rel", "icon"), .href(AppIcon.all[0].path))
            HTML.meta(.name("theme-color"), .attribute("content", "#1d2330"))
            HTML.script(src: StaticFile.liveUpdates.path, .flag("defer"))
            HTML.script(src: StaticFile.scanQueue.path, .flag("defer"))
            HTML.script(src: StaticFile.reminders.path, .flag("defer"))
            HTML.script(src: StaticFile.localTime.path, .flag("defer"))
            for script in scripts { HTML.script(src: script.path, .flag("defer")) }
        }
        let shown = generation.map(String.init) ?? ""
        let body = HTML.body(.flag("data-live", live), .attribute("data-generation", shown)) {
            HTML.header(.class("top")) {
                HTML.a(.class("brand"), .href("/")) { "Prospects" }
                // Without sign-in whoever runs serve is the admin.
                for item in Section.allCases where item != .list && (item != .users || viewer?.isAdmin ?? true) {
                    if item == section {
                        HTML.a(.href(item.path), .attribute("aria-current", "page")) { item.rawValue }
                    } else {
                        HTML.a(.href(item.path)) { item.rawValue }
                    }
                }
                // Shown by the queue script while scans wait on this phone: "N waiting to sync".
                HTML.span(.id("sync-status"), .class("sync-status"), .attribute("role", "status"), .flag("hidden"))
                // Shown by the reminders script while notifications are neither allowed nor refused: a bell, so that
                // the header stays one row on a phone.
                HTML.button(
                    .type("button"), .id("notify-reminders"), .flag("hidden"),
                    .attribute("aria-label", "Notify me of reminders"), .attribute("title", "Notify me of reminders")
                ) { bell }
                if let viewer {
                    // At phone width the name is cut short (whole in its title) and the button is an icon.
                    HTML.form(.method("post"), .action("/signout"), .class("signout")) {
                        csrfField(viewer.csrfToken)
                        HTML.span(.class("account"), .attribute("title", viewer.account)) { viewer.account }
                        " "
                        HTML.button(
                            .type("submit"), .attribute("aria-label", "Sign out"), .attribute("title", "Sign out")
                        ) {
                            signOutIcon
                            HTML.span(.class("label")) { "Sign out" }
                        }
                    }
                }
            }
            HTML.main { content() }
            if sections { bottomBar(section: section) }
        }
        return HTML.trustedMarkup("<!DOCTYPE html>").appending(
            .element("html", [.attribute("lang", "en")], content: .element("head", content: head).appending(body)))
    }

    /// The phone's navigation (shown at 600 px and narrower, instead of the header's links): Leads · Reminders ·
    /// **Scan** (in the middle, the largest) · Me · More, the admin pages and signing out folded under More.
    static func bottomBar(section: Section?) -> HTML {
        HTML.nav(.class("bottom"), .attribute("aria-label", "Sections")) {
            bottomLink(.list, section: section, icon: listIcon)
            bottomLink(.reminders, section: section, icon: bell)
            bottomLink(.scan, section: section, icon: scanIcon)
            bottomLink(.me, section: section, icon: meIcon)
            // Without sign-in whoever runs serve is the admin.
            let isAdmin = viewer?.isAdmin ?? true
            if isAdmin || viewer != nil {
                HTML.details(.class("more")) {
                    HTML.summary(.attribute("aria-current", section == .users ? "page" : "false")) {
                        moreIcon
                        HTML.span { "More" }
                    }
                    HTML.div(.class("menu")) {
                        if isAdmin {
                            HTML.a(.href(Section.users.path)) { "Users" }
                            HTML.a(.href("/import")) { "Import…" }
                        }
                        if let viewer {
                            HTML.form(.method("post"), .action("/signout")) {
                                csrfField(viewer.csrfToken)
                                HTML.button(.type("submit")) { "Sign out \(viewer.account)" }
                            }
                        }
                    }
                }
            }
        }
    }

    private static func bottomLink(_ item: Section, section: Section?, icon: HTML) -> HTML {
        HTML.a(
            .href(item.path), .class(item == .scan ? "scan" : "item"), .data("section", item.path),
            .attribute("aria-current", item == section ? "page" : "false")
        ) {
            icon
            HTML.span { item.rawValue }
        }
    }

    /// Three lines, the list.
    static let listIcon = icon("M3 5h18v2H3zm0 6h18v2H3zm0 6h18v2H3z")

    /// A viewfinder's corners around a square, the scan.
    static let scanIcon = icon(
        "M3 3h6v2H5v4H3zm12 0h6v6h-2V5h-4zM3 15h2v4h4v2H3zm16 0h2v6h-6v-2h4zM8 8h8v8H8z")

    /// A head and shoulders, one's own card.
    static let meIcon = icon(
        "M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm0 2c-4 0-8 2-8 5v2h16v-2c0-3-4-5-8-5z")

    /// Three dots, more.
    static let moreIcon = icon(
        "M5 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm7 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm7 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4z")

    /// A bell icon in the text's colour, hidden from screen readers (its button says what it does).
    static let bell = icon(
        "M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0"
            + "v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z")

    /// A door with an arrow out of it, the sign-out button's face at phone width.
    static let signOutIcon = icon(
        "M17 7l-1.41 1.41L18.17 11H8v2h10.17l-2.58 2.58L17 17l5-5zM4 5h8V3H4c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h8v-2"
            + "H4V5z")

    /// An 18 px icon of one `path` in the text's colour, hidden from screen readers (its button has the name).
    static func icon(_ path: String) -> HTML {
        HTML.element(
            "svg",
            [
                .attribute("viewBox", "0 0 24 24"), .attribute("width", "18"), .attribute("height", "18"),
                .attribute("aria-hidden", "true"), .attribute("focusable", "false"),
            ],
            content: .element("path", [.attribute("fill", "currentColor"), .attribute("d", path)]))
    }

    /// The hidden field that carries the session's synchronizer token in every form that changes something.
    static func csrfField(_ token: String) -> HTML {
        HTML.input(.type("hidden"), .name("csrf"), .value(token))
    }

    /// The hidden field that says which page a form's 303 goes back to.
    static func returnField(_ path: String) -> HTML {
        HTML.input(.type("hidden"), .name("return"), .value(path))
    }
}
