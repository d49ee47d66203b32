import SafeHTML

/// The sign-in form: the one page a browser not signed in may see when `serve` needs accounts.
struct SignInPage {
    var csrfToken: String
    /// Why the last attempt failed, shown above the form.
    var problem: String?
    var name = ""
    /// The path asked for before sign-in, where a right password lands (checked again when it comes back).
    var next = ""

    init(csrfToken: String, problem: String? = nil, name: String = "", next: String = "") {
        self.csrfToken = csrfToken
        self.problem = problem
        self.name = name
        self.next = next
    }

    var html: HTML {
        PageLayout.page(title: "Sign in", section: nil, sections: false) {
            HTML.h1 { "Sign in" }
            if let problem { HTML.p(.id("signin-problem"), .class("rejected")) { problem } }
            HTML.form(.method("post"), .action("/signin"), .class("stack")) {
                PageLayout.csrfField(csrfToken)
                if !next.isEmpty { HTML.input(.type("hidden"), .name("next"), .value(next)) }
                HTML.label {
                    "Name "
                    HTML.input(
                        .type("text"), .name("name"), .value(name), .attribute("autocomplete", "username"),
                        .flag("required"))
                }
                HTML.label {
                    "Password "
                    HTML.input(
                        .type("password"), .name("password"), .attribute("autocomplete", "current-password"),
                        .flag("required"))
                }
                HTML.button(.type("submit"), .class("primary")) { "Sign in" }
            }
        }
    }
}
