import ProspectsCore
import ProspectsService
import SafeHTML

/// The leads with a reminder, grouped: overdue, the next 7 days, the next 30 days, later.
struct RemindersPage {
    var groups: ReminderGroups
    var csrfToken: String
    /// The store's change generation read before the groups (see `PageLayout.page`).
    var generation: Int64?

    var html: HTML {
        PageLayout.page(title: "Reminders", section: .reminders, live: true, generation: generation) {
            HTML.h1 { "Reminders" }
            if groups.isEmpty {
                HTML.p(.class("empty")) { "No reminders. Set one from a lead's page." }
            }
            group("Overdue", "overdue", groups.overdue)
            group("Next 7 days", "week", groups.nextWeek)
            group("Next 30 days", "month", groups.nextMonth)
            group("Later", "later", groups.later)
        }
    }

    private func group(_ title: String, _ id: String, _ leads: [StoredProspect]) -> HTML {
        HTML {
            if !leads.isEmpty {
                HTML.section(.id(id)) {
                    HTML.h2 { "\(title) (\(leads.count))" }
                    HTML.ul {
                        for lead in leads {
                            HTML.li {
                                HTML.a(.href("/leads/\(lead.id)")) { lead.prospect.name }
                                " — "
                                lead.remindAt.map(BrowserTime.time) ?? HTML.empty
                                lead.isContacted ? " (contacted)" : ""
                                " "
                                HTML.form(.method("post"), .action("/leads/\(lead.id)/mark"), .class("inline")) {
                                    PageLayout.csrfField(csrfToken)
                                    PageLayout.returnField("/reminders")
                                    HTML.button(
                                        .type("submit"), .name("contacted"), .value(lead.isContacted ? "false" : "true")
                                    ) {
                                        lead.isContacted ? "Mark uncontacted" : "Mark contacted"
                                    }
                                }
                                HTML.form(.method("post"), .action("/leads/\(lead.id)/remind"), .class("inline")) {
                                    PageLayout.csrfField(csrfToken)
                                    PageLayout.returnField("/reminders")
                                    HTML.button(.type("submit"), .name("in"), .value("1d"), .class("later")) {
                                        "In a day"
                                    }
                                    HTML.button(.type("submit"), .name("in"), .value("1w")) { "In a week" }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
