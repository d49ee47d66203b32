import Foundation
import ProspectsCore
import ProspectsExchange
import ProspectsService
import SafeHTML

/// One lead: every field it has (no empty rows), its rating, tags, notes and scan history, its reminder, and the
/// forms that change them (edit, note, rate, tag, remind, mark, delete), each posted with the session's token.
struct LeadPage {
    var details: ProspectDetails
    var csrfToken: String
    /// Whether the viewer may delete (admins, or anyone when serve needs no accounts): staff see no delete button.
    var canDelete = true
    /// What a form just sent was refused for, shown above the fields.
    var problem: String?
    /// The other lead a refused new address belongs to, linked from the problem.
    var clash: StoredProspect?
    /// The edit form's values when an edit was refused (what was typed, to correct); nil: the lead's own.
    var edited: EditFields?

    /// The edit form's fields, as typed.
    struct EditFields: Sendable, Hashable {
        var name = ""
        var email = ""
        var phone = ""
        var organization = ""
        var title = ""
    }

    var html: HTML {
        let stored = details.stored
        let prospect = stored.prospect
        let id = String(stored.id)
        let path = "/leads/\(id)"
        return PageLayout.page(title: prospect.name, section: nil) {
            HTML.p { HTML.a(.href("/")) { "← All leads" } }
            HTML.h1(.class("lead-name")) { prospect.name }
            if let problem {
                HTML.p(.class("problem"), .id("problem"), .attribute("role", "alert")) {
                    problem
                    if let clash {
                        " "
                        HTML.a(.href("/leads/\(clash.id)")) { "Open \(clash.prospect.name)" }
                    }
                }
            }
            HTML.dl(.class("fields")) {
                field("Email", prospect.email)
                if !prospect.otherEmails.isEmpty {
                    field("Other emails", prospect.otherEmails.joined(separator: ", "))
                }
                if let phone = prospect.phone, !phone.isEmpty { field("Phone", phone) }
                if !prospect.otherPhones.isEmpty {
                    field("Other phones", prospect.otherPhones.joined(separator: ", "))
                }
                if let organization = prospect.organization, !organization.isEmpty {
                    field("Organisation", organization)
                }
                if let title = prospect.title, !title.isEmpty { field("Title", title) }
                if stored.rating != .none { field("Rating", stored.rating.rawValue) }
                if !stored.tags.isEmpty { field("Tags", stored.tags.joined(separator: ", ")) }
                field("Contacted", stored.isContacted ? "Yes" : "No")
                if let remindAt = stored.remindAt {
                    HTML.dt { "Reminder" }
                    HTML.dd(.class("reminder")) { BrowserTime.time(remindAt) }
                }
                if !details.events.isEmpty { field("Events", details.events.joined(separator: ", ")) }
                if !details.collectors.isEmpty { field("Collected by", details.collectors.joined(separator: ", ")) }
                HTML.dt { "Added" }
                HTML.dd { BrowserTime.time(stored.createdAt) }
                HTML.dt { "Last seen" }
                HTML.dd { BrowserTime.time(stored.lastSeenAt) }
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
                if canDelete {
                    " "
                    HTML.form(.method("post"), .action("/delete"), .class("inline")) {
                        PageLayout.csrfField(csrfToken)
                        PageLayout.returnField("/")
                        HTML.input(.type("hidden"), .name("id"), .value(id))
                        HTML.button(.type("submit"), .class("danger")) { "Delete…" }
                    }
                }
            }
            rating(path)
            tags(path)
            notes(path)
            reminder(path)
            history
            edit(path)
        }
    }

    private func rating(_ path: String) -> HTML {
        HTML.section(.id("rating")) {
            HTML.h2 { "Rating" }
            HTML.form(.method("post"), .action("\(path)/rate"), .class("inline")) {
                PageLayout.csrfField(csrfToken)
                for rating in ProspectRating.allCases {
                    HTML.button(
                        .type("submit"), .name("rating"), .value(rating.rawValue),
                        .attribute("aria-pressed", rating == details.stored.rating ? "true" : "false")
                    ) { rating == .none ? "none" : rating.rawValue }
                }
            }
        }
    }

    private func tags(_ path: String) -> HTML {
        HTML.section(.id("tags")) {
            HTML.h2 { "Tags" }
            if !details.stored.tags.isEmpty {
                HTML.ul(.class("tags")) {
                    for tag in details.stored.tags {
                        HTML.li {
                            HTML.form(.method("post"), .action("\(path)/tags"), .class("inline")) {
                                PageLayout.csrfField(csrfToken)
                                HTML.span(.class("tag")) { tag }
                                HTML.button(
                                    .type("submit"), .name("remove"), .value(tag),
                                    .attribute("aria-label", "Remove the tag \(tag)")
                                ) { "×" }
                            }
                        }
                    }
                }
            }
            HTML.form(.method("post"), .action("\(path)/tags"), .class("inline")) {
                PageLayout.csrfField(csrfToken)
                HTML.input(
                    .type("text"), .name("add"), .attribute("aria-label", "New tags"),
                    .attribute("placeholder", "tags, separated by commas"))
                HTML.button(.type("submit")) { "Add tags" }
            }
        }
    }

    private func notes(_ path: String) -> HTML {
        HTML.section(.id("notes")) {
            HTML.h2 { "Notes" }
            if !details.notes.isEmpty {
                HTML.ol(.class("notes")) {
                    for note in details.notes {
                        HTML.li {
                            HTML.div(.class("note-head")) {
                                HTML.strong(.class("author")) { note.author.isEmpty ? "someone" : note.author }
                                " · "
                                BrowserTime.time(note.writtenAt)
                            }
                            HTML.p(.class("note-text")) { note.text }
                        }
                    }
                }
            }
            HTML.form(.method("post"), .action("\(path)/note"), .class("stack")) {
                PageLayout.csrfField(csrfToken)
                HTML.textarea(
                    .name("text"), .attribute("rows", "3"), .attribute("aria-label", "New note"), .flag("required"))
                HTML.button(.type("submit"), .class("primary")) { "Add note" }
            }
        }
    }

    private func reminder(_ path: String) -> HTML {
        let stored = details.stored
        return HTML.section {
            HTML.h2 { "Reminder" }
            HTML.form(.method("post"), .action("\(path)/remind"), .class("inline"), .id("remind")) {
                PageLayout.csrfField(csrfToken)
                // The browser's zone, so that 09:00 is the staffer's 09:00 (the server's zone without a script).
                BrowserTime.field
                HTML.label {
                    "At "
                    HTML.input(
                        .type("datetime-local"), .name("at"),
                        .value(stored.remindAt.map(Self.localInputValue) ?? ""),
                        .data("utc", stored.remindAt.map(ISO8601.string) ?? ""))
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
    }

    private var history: HTML {
        HTML.section(.id("history")) {
            HTML.h2 { "Scan history" }
            HTML.table(.class("history")) {
                HTML.thead {
                    HTML.tr {
                        HTML.th { "When" }
                        HTML.th { "Event" }
                        HTML.th { "Collected by" }
                        HTML.th { "From" }
                    }
                }
                HTML.tbody {
                    for record in details.history {
                        HTML.tr {
                            HTML.td { BrowserTime.time(record.seenAt) }
                            HTML.td(.data("label", "Event")) { record.event ?? "" }
                            HTML.td(.data("label", "Collected by")) { record.collectedBy ?? "" }
                            HTML.td(.data("label", "From"), .class("source")) { record.source }
                        }
                    }
                }
            }
        }
    }

    private func edit(_ path: String) -> HTML {
        let prospect = details.stored.prospect
        let values =
            edited
            ?? EditFields(
                name: prospect.name, email: prospect.email, phone: prospect.phone ?? "",
                organization: prospect.organization ?? "", title: prospect.title ?? "")
        return HTML.section(.id("edit")) {
            HTML.h2 { "Edit" }
            HTML.form(.method("post"), .action("\(path)/edit"), .class("stack")) {
                PageLayout.csrfField(csrfToken)
                editField("Name", "name", "text", values.name, required: true)
                editField("Email", "email", "email", values.email, required: true)
                editField("Phone", "phone", "tel", values.phone)
                editField("Organisation", "organization", "text", values.organization)
                editField("Title", "title", "text", values.title)
                HTML.button(.type("submit"), .class("primary")) { "Save" }
            }
        }
    }

    private func editField(_ label: String, _ name: String, _ type: String, _ value: String, required: Bool = false)
        -> HTML
    {
        HTML.label {
            label
            " "
            HTML.input(.type(type), .name(name), .value(value), .flag("required", required))
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
