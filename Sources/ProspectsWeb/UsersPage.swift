import ProspectsCore
import ProspectsService
import SafeHTML

/// The accounts that may sign in (admins only): list, add with a role and a password, remove.
struct UsersPage {
    var accounts: [Account]
    var csrfToken: String
    /// The signed-in admin (nil without sign-in): their own row has no remove button.
    var viewer: String?
    /// What the last change did or why it was refused.
    var message: String?
    var problem: String?
    /// The add form's name when an add was refused.
    var typedName = ""

    var html: HTML {
        PageLayout.page(title: "Users", section: .users) {
            HTML.h1 { "Users" }
            if let problem { HTML.p(.class("problem"), .id("problem"), .attribute("role", "alert")) { problem } }
            if let message { HTML.p(.class("notice"), .id("message")) { message } }
            if accounts.isEmpty {
                HTML.p(.class("empty")) {
                    "No accounts yet. Serving on an address other than 127.0.0.1 needs at least one."
                }
            } else {
                HTML.table(.class("users")) {
                    HTML.thead {
                        HTML.tr {
                            HTML.th { "Name" }
                            HTML.th { "Role" }
                            HTML.th { "Added" }
                            HTML.th { "" }
                        }
                    }
                    HTML.tbody {
                        for account in accounts {
                            HTML.tr(.data("account", account.name)) {
                                HTML.td(.class("name")) { account.name }
                                HTML.td(.class("role")) { account.role.rawValue }
                                HTML.td { BrowserTime.time(account.createdAt) }
                                HTML.td {
                                    if account.name != viewer {
                                        HTML.form(.method("post"), .action("/users/remove"), .class("inline")) {
                                            PageLayout.csrfField(csrfToken)
                                            HTML.input(.type("hidden"), .name("name"), .value(account.name))
                                            HTML.button(.type("submit"), .class("danger")) { "Remove" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            HTML.section {
                HTML.h2 { "Add an account" }
                HTML.form(.method("post"), .action("/users/add"), .class("stack"), .id("add-user")) {
                    PageLayout.csrfField(csrfToken)
                    HTML.label {
                        "Name "
                        HTML.input(
                            .type("text"), .name("name"), .value(typedName), .flag("required"),
                            .attribute("autocomplete", "off"))
                    }
                    HTML.label {
                        "Role "
                        HTML.select(.name("role")) {
                            HTML.option(.value("staff")) { "staff: see, scan, mark, note and rate" }
                            HTML.option(.value("admin")) { "admin: also delete, import, export and manage users" }
                        }
                    }
                    HTML.label {
                        "Password "
                        HTML.input(
                            .type("password"), .name("password"), .flag("required"),
                            .attribute("minlength", String(ProspectsService.minimumPasswordLength)),
                            .attribute("autocomplete", "new-password"))
                    }
                    HTML.button(.type("submit"), .class("primary")) { "Add" }
                }
            }
        }
    }
}
