import ProspectsExchange
import ProspectsService
import SafeHTML

/// Import a CSV, vCard or JSON Lines list (admins only), and after an import what it did, in the CLI's words.
struct ImportPage {
    /// What the last import did, shown once after its 303.
    struct Report: Sendable, Hashable {
        /// The name the browser gave the file.
        var fileName: String
        /// `12 rows: 10 inserted, 1 duplicate, 1 rejected`, or why the list was not imported.
        var summary: String
        /// One line per row rejected or cell left out: `LINE: reason`.
        var problems: [String]
        var failed: Bool
    }

    var report: Report?
    var csrfToken: String

    var html: HTML {
        PageLayout.page(title: "Import", section: nil) {
            HTML.h1 { "Import a list" }
            if let report {
                HTML.section(.id("import-report")) {
                    HTML.p(.class(report.failed ? "problem" : "notice"), .id("import-summary")) {
                        HTML.strong { report.fileName }
                        ": "
                        report.summary
                    }
                    if !report.problems.isEmpty {
                        HTML.ul(.class("outcomes"), .id("import-problems")) {
                            for problem in report.problems {
                                HTML.li(.class("rejected")) { "\(report.fileName):\(problem)" }
                            }
                        }
                    }
                }
            }
            HTML.form(
                .method("post"), .action("/import"), .attribute("enctype", "multipart/form-data"), .class("stack")
            ) {
                PageLayout.csrfField(csrfToken)
                HTML.label {
                    "List "
                    HTML.input(
                        .type("file"), .name("list"),
                        .attribute("accept", ".csv,.vcf,.vcard,.json,.jsonl,text/csv,text/vcard"), .flag("required"))
                }
                HTML.label {
                    "Format "
                    HTML.select(.name("format")) {
                        HTML.option(.value("")) { "by the file's content or name" }
                        for format in ImportFormat.allCases {
                            HTML.option(.value(format.rawValue)) { format.rawValue }
                        }
                    }
                }
                HTML.label {
                    "Event "
                    HTML.input(.type("text"), .name("event"), .attribute("placeholder", "where these were collected"))
                }
                HTML.small {
                    "CSV with a header row (name, email; optional phone, organization, contacted, createdAt, remindAt), "
                    "vCard (2.1, 3.0, 4.0) or JSON Lines, as Export writes them. The same list imported again counts "
                    "nobody twice."
                }
                HTML.button(.type("submit"), .class("primary")) { "Import" }
            }
            HTML.p { HTML.a(.href("/")) { "Back to the leads" } }
        }
    }
}
