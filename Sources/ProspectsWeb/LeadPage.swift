import Foundation
import ProspectStore
import ProspectsCore
import ProspectsService
import SafeHTML

/// One lead: every field, its scan history, its reminder (set or clear), mark and delete.
struct LeadPage {
    var details: ProspectDetails
    var csrfToken: String

    var html: HTML {
        let stored = details.stored
        let prospect = stored.prospect
        let id = String(stored.id)
        let path = "/leads/\(id)"
        return PageLayout.page(title: prospect.name, section: nil) {
            HTML.p { HTML.a(.href("/")) { "← All leads" } }
            HTML.h1(.class("lead-name")) { prospect.name }
            HTML.dl(.class("fields")) {
                field("Email", prospect.email)
                field("Phone", prospect.phone ?? "")
                field("Organisation", prospect.organization ?? "")
                field("Contacted", stored.isContacted ? "Yes" : "No")
                field("Reminder", stored.remindAt.map(LocalTime.text) ?? "none")
                field("Added", LocalTime.text(stored.createdAt))
                field("Last seen", LocalTime.text(stored.lastSeenAt))
                field("Scans", String(stored.scanCount))
                field("Id", "#\(id)")
            }
            HTML.section {
                HTML.form(.method("post"), .action("\(path)/mark"), .class("inline")) {
                    PageLayout.csrfField(csrfToken)
                    PageLayout.returnField(path)
                    HTML.button(
                        .type("submit"), .name("contacted"), .value(stored.isContacted ? "false" : "true"),
                        .class("primary mark")
                    ) {
                        stored.isContacted ? "Mark uncontacted" : "Mark contacted"
                    }
                }
                " "
                HTML.form(.method("post"), .action("/delete"), .class("inline")) {
                    PageLayout.csrfField(csrfToken)
                    PageLayout.returnField("/")
                    HTML.input(.type("hidden"), .name("id"), .value(id))
                    HTML.button(.type("submit"), .class("danger")) { "Delete…" }
                }
            }
            HTML.section {
                HTML.h2 { "Reminder" }
                HTML.form(.method("post"), .action("\(path)/remind"), .class("inline"), .id("remind")) {
                    PageLayout.csrfField(csrfToken)
                    HTML.label {
                        "At "
                        HTML.input(
                            .type("datetime-local"), .name("at"),
                            .value(stored.remindAt.map(Self.localInputValue) ?? ""))
                    }
                    HTML.label {
                        " or in "
                        HTML.input(
                            .type("text"), .name("in"), .attribute("placeholder", "2d, 1w, 3h"), .attribute("size", "6")
                        )
                    }
                    HTML.button(.type("submit"), .class("primary")) { "Set reminder" }
                    if stored.remindAt != nil {
                        HTML.button(.type("submit"), .name("clear"), .value("true")) { "Clear" }
                    }
                }
            }
            HTML.section {
                HTML.h2 { "Scan history" }
                HTML.ol(.class("history")) {
                    for record in details.history {
                        HTML.li {
                            HTML.time { LocalTime.text(record.seenAt) }
                            " — "
                            record.source
                        }
                    }
                }
            }
        }
    }

    private func field(_ name: String, _ value: String) -> HTML {
        HTML {
            HTML.dt { name }
            HTML.dd { value }
        }
    }

    /// `2026-12-01T09:00` in local time, as a `datetime-local` input holds it.
    static func localInputValue(_ date: Date) -> String {
        let text = LocalTime.text(date)  // 2026-12-01 09:00 CET
        return String(text.prefix(10)) + "T" + String(text.dropFirst(11).prefix(5))
    }
}

/// Asks before deleting: names every lead the selection holds, and posts them again with `confirmed`.
struct DeleteConfirmationPage {
    var leads: [StoredProspect]
    var returnPath: String
    var csrfToken: String

    var html: HTML {
        PageLayout.page(title: "Delete leads", section: nil) {
            HTML.h1 { leads.count == 1 ? "Delete this lead?" : "Delete these \(leads.count) leads?" }
            if leads.isEmpty {
                HTML.p { "No lead was selected. " }
                HTML.p { HTML.a(.href(returnPath)) { "Back" } }
            } else {
                HTML.p { "Each one goes with its scan history. This cannot be undone." }
                HTML.ul(.class("to-delete")) {
                    for lead in leads {
                        HTML.li {
                            HTML.strong { lead.prospect.name }
                            " "
                            lead.prospect.email
                        }
                    }
                }
                HTML.form(.method("post"), .action("/delete"), .class("inline")) {
                    PageLayout.csrfField(csrfToken)
                    PageLayout.returnField(returnPath)
                    HTML.input(.type("hidden"), .name("confirmed"), .value("true"))
                    for lead in leads { HTML.input(.type("hidden"), .name("id"), .value(String(lead.id))) }
                    HTML.button(.type("submit"), .class("danger"), .id("confirm-delete")) { "Delete" }
                    HTML.a(.class("button"), .href(returnPath)) { "Cancel" }
                }
            }
        }
    }
}

/// A page that says what went wrong, with the status it is sent with.
struct MessagePage {
    var title: String
    var message: String

    var html: HTML {
        PageLayout.page(title: title, section: nil) {
            HTML.h1 { title }
            HTML.p { message }
            HTML.p { HTML.a(.href("/")) { "Back to the leads" } }
        }
    }
}
