import Foundation
import ProspectsCore
import ProspectsExchange
import ProspectsService
import SafeHTML

/// The list: the app's tabs with their counts, sort, search, a page of rows, per-row and bulk actions. Works
/// without JavaScript: every state is a link, every change a form posted with the session's token.
struct ListPage {
    var state: ListState
    var counts: TabCounts
    var rows: [StoredProspect]
    var pageSize: Int
    var csrfToken: String
    /// Whether the viewer may export, import and delete (admins, or anyone when serve needs no accounts).
    var isAdmin = true
    /// The store's change generation read before the rows (see `PageLayout.page`).
    var generation: Int64?

    /// Prospects in the tab shown (with the search).
    var total: Int { counts[state.tab] }
    var pageCount: Int { max(1, (total + pageSize - 1) / pageSize) }

    var html: HTML {
        PageLayout.page(
            title: "Leads", section: .list, live: true, generation: generation, scripts: [.options]
        ) {
            HTML.h1 { "Leads" }
            HTML.p(.class("notice"), .id("stale"), .flag("hidden")) {
                "The list changed. "
                HTML.a(.href(state.url)) { "Show the new list" }
            }
            tabs
            toolbar
            // On a phone sort, filters and export fold behind one control; a desktop shows them open (app.css).
            HTML.details(.class("options"), .id("options")) {
                HTML.summary { "Sort, filter, export" }
                sortLinks
                filters
            }
            if rows.isEmpty {
                HTML.p(.class("empty")) {
                    if state.isFiltered {
                        "No lead matches these filters."
                    } else if state.search.isEmpty {
                        "No leads here yet."
                    } else {
                        "No lead matches “\(state.search)”."
                    }
                }
            } else {
                table
            }
            paging
        }
    }

    private var tabs: HTML {
        HTML.nav(.class("tabs"), .attribute("aria-label", "Tabs")) {
            for (tab, label) in [
                (ProspectFilter.everyone, "Everyone"), (.contacted, "Contacted"), (.uncontacted, "Uncontacted"),
            ] {
                let link = state.with {
                    $0.tab = tab
                    $0.page = 1
                }
                if tab == state.tab {
                    HTML.a(.href(link.url), .attribute("aria-current", "page"), .data("tab", tab.rawValue)) {
                        label
                        " "
                        HTML.span(.class("count")) { counts[tab] }
                    }
                } else {
                    HTML.a(.href(link.url), .data("tab", tab.rawValue)) {
                        label
                        " "
                        HTML.span(.class("count")) { counts[tab] }
                    }
                }
            }
        }
    }

    private var toolbar: HTML {
        HTML.div(.class("toolbar")) {
            HTML.form(.method("get"), .action("/"), .attribute("role", "search")) {
                hiddenFields(excluding: ["q", "page"])
                HTML.input(
                    .type("search"), .name("q"), .value(state.search),
                    .attribute("placeholder", "Name, email, organisation"),
                    .attribute("aria-label", "Search"))
                HTML.button(.type("submit")) { "Search" }
            }
        }
    }

    private var sortLinks: HTML {
        HTML.div(.class("toolbar")) {
            HTML.div(.class("sort")) {
                "Sort: "
                sortLink(.name, reverse: false, label: "Name A–Z")
                sortLink(.name, reverse: true, label: "Name Z–A")
                sortLink(.recent, reverse: false, label: "Newest")
                sortLink(.recent, reverse: true, label: "Oldest")
            }
        }
    }

    /// The state's other query items, so that a GET form changes only its own.
    private func hiddenFields(excluding: Set<String>) -> HTML {
        HTML {
            for (name, value) in state.items(excluding: excluding) {
                HTML.input(.type("hidden"), .name(name), .value(value))
            }
        }
    }

    /// Rating, tag, event and collector as a GET form: each filter is a link too, and needs no script.
    private var filters: HTML {
        HTML.form(.method("get"), .action("/"), .class("filters"), .id("filters")) {
            hiddenFields(excluding: ["rating", "tag", "event", "by", "page"])
            HTML.label {
                "Rating"
                HTML.select(.name("rating")) {
                    HTML.option(.value(""), .flag("selected", state.rating == nil)) { "any" }
                    for rating in ProspectRating.allCases {
                        HTML.option(.value(rating.rawValue), .flag("selected", state.rating == rating)) {
                            rating == .none ? "unrated" : rating.rawValue
                        }
                    }
                }
            }
            filterField("Tag", "tag", state.tag)
            filterField("Event", "event", state.event)
            filterField("Collected by", "by", state.collectedBy)
            HTML.button(.type("submit")) { "Filter" }
            if state.isFiltered {
                let cleared = state.with {
                    $0.rating = nil
                    $0.tag = ""
                    $0.event = ""
                    $0.collectedBy = ""
                    $0.page = 1
                }
                HTML.a(.href(cleared.url), .id("clear-filters")) { "Clear filters" }
            }
            if isAdmin {
                HTML.span(.class("export")) {
                    "Export: "
                    for format in ExportFormat.allCases {
                        HTML.a(
                            .href("/export?" + URLEncoding.query([("format", format.rawValue)] + exportItems)),
                            .data("export", format.rawValue)
                        ) { Self.formatName(format) }
                        " "
                    }
                    for profile in CSVProfile.allCases {
                        HTML.a(
                            .href(
                                "/export?"
                                    + URLEncoding.query(
                                        [("format", ExportFormat.csv.rawValue), ("profile", profile.rawValue)]
                                            + exportItems)),
                            .data("export", profile.rawValue)
                        ) { "CSV for \(Self.profileName(profile))" }
                        " "
                    }
                    HTML.a(.href("/import")) { "Import…" }
                }
            }
        }
    }

    /// The list's query items an export keeps: everything but the page.
    private var exportItems: [(String, String)] { state.items(excluding: ["page"]) }

    static func formatName(_ format: ExportFormat) -> String {
        switch format {
        case .csv: "CSV"
        case .json: "JSON"
        case .vcard: "vCard"
        }
    }

    static func profileName(_ profile: CSVProfile) -> String {
        switch profile {
        case .hubspot: "HubSpot"
        case .salesforce: "Salesforce"
        case .google: "Google Contacts"
        }
    }

    private func filterField(_ label: String, _ name: String, _ value: String) -> HTML {
        HTML.label {
            label
            HTML.input(.type("text"), .name(name), .value(value))
        }
    }

    private func sortLink(_ sort: ProspectSort, reverse: Bool, label: String) -> HTML {
        let link = state.with {
            $0.sort = sort
            $0.reverse = reverse
            $0.page = 1
        }
        let current = state.sort == sort && state.reverse == reverse
        return HTML.a(
            .href(link.url), .attribute("aria-current", current ? "true" : "false"),
            .data("sort", sort.rawValue + (reverse ? "-reverse" : ""))
        ) { label }
    }

    private var table: HTML {
        HTML.form(.method("post"), .action("/mark"), .id("leads")) {
            PageLayout.csrfField(csrfToken)
            PageLayout.returnField(state.url)
            HTML.table(.class("leads")) {
                HTML.thead {
                    HTML.tr {
                        HTML.th { HTML.span(.attribute("aria-label", "Select")) { "✓" } }
                        HTML.th { "Name" }
                        HTML.th { "Organisation" }
                        HTML.th { "Email" }
                        HTML.th { "Rating" }
                        HTML.th { "Contacted" }
                        HTML.th { "Reminder" }
                        HTML.th { "Actions" }
                    }
                }
                HTML.tbody {
                    for row in rows { self.row(row) }
                }
            }
            HTML.div(.class("bulk")) {
                HTML.button(.type("submit"), .name("contacted"), .value("true"), .attribute("formaction", "/mark")) {
                    "Mark selected contacted"
                }
                HTML.button(.type("submit"), .name("contacted"), .value("false"), .attribute("formaction", "/mark")) {
                    "Mark selected uncontacted"
                }
                if isAdmin {
                    HTML.button(
                        .type("submit"), .class("danger"), .attribute("formaction", "/delete"), .id("delete-selected")
                    ) {
                        "Delete selected…"
                    }
                }
            }
        }
    }

    private func row(_ stored: StoredProspect) -> HTML {
        let id = String(stored.id)
        let prospect = stored.prospect
        return HTML.tr(.data("id", id)) {
            HTML.td(.class("pick")) {
                // The label is the tap target on a phone (44 px square), bigger than the box it holds.
                HTML.label {
                    HTML.input(
                        .type("checkbox"), .name("id"), .value(id), .attribute("aria-label", "Select \(prospect.name)"))
                }
            }
            HTML.td(.class("name")) { HTML.a(.href("/leads/\(id)")) { prospect.name } }
            HTML.td(.data("label", "Organisation"), .class("organization")) { prospect.organization ?? "" }
            HTML.td(.data("label", "Email"), .class("email")) { prospect.email }
            HTML.td(.data("label", "Rating"), .class("rating rating-\(stored.rating.rawValue)")) {
                stored.rating == .none ? "" : stored.rating.rawValue
            }
            HTML.td(.data("label", "Contacted"), .class("contacted")) { stored.isContacted ? "Yes" : "No" }
            HTML.td(.data("label", "Reminder"), .class("reminder")) {
                stored.remindAt.map(BrowserTime.time) ?? HTML.empty
            }
            HTML.td(.class("row-actions")) {
                HTML.div(.class("actions")) {
                    HTML.button(
                        .type("submit"), .name("contacted"), .value(stored.isContacted ? "false" : "true"),
                        .attribute("formaction", "/leads/\(id)/mark"), .class("mark")
                    ) {
                        stored.isContacted ? "Mark uncontacted" : "Mark contacted"
                    }
                    HTML.a(.class("button open"), .href("/leads/\(id)")) { "Open" }
                }
            }
        }
    }

    private var paging: HTML {
        let first = total == 0 ? 0 : (state.page - 1) * pageSize + 1
        let last = min(total, state.page * pageSize)
        return HTML.div(.class("paging")) {
            if state.page > 1 {
                HTML.a(.href(state.with { $0.page -= 1 }.url), .attribute("rel", "prev")) { "← Previous" }
            } else {
                HTML.span {}
            }
            HTML.span(.class("count")) { "\(first)–\(last) of \(total)" }
            if state.page < pageCount {
                HTML.a(.href(state.with { $0.page += 1 }.url), .attribute("rel", "next")) { "Next →" }
            } else {
                HTML.span {}
            }
        }
    }
}
