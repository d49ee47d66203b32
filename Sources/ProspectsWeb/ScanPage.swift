import ProspectsService
import SafeHTML

/// Scan by upload: several pictures at once; on a phone the file input opens the camera. After an upload, each
/// file's outcome.
struct ScanPage {
    var report: [UploadOutcome]?
    var csrfToken: String
    var maximumFiles: Int
    var maximumFileSize: Int

    var html: HTML {
        PageLayout.page(title: "Scan", section: .scan) {
            HTML.h1 { "Scan" }
            if let report {
                HTML.section(.id("outcomes")) {
                    HTML.h2 { "Uploaded" }
                    HTML.ul(.class("outcomes")) {
                        for file in report {
                            for line in file.lines {
                                HTML.li(.class(line.kind.rawValue)) {
                                    HTML.strong { file.fileName }
                                    ": "
                                    line.text
                                }
                            }
                        }
                    }
                }
            }
            HTML.form(
                .method("post"), .action("/scan"), .attribute("enctype", "multipart/form-data"), .class("stack")
            ) {
                PageLayout.csrfField(csrfToken)
                HTML.label {
                    "Pictures of contact QR codes "
                    HTML.input(
                        .type("file"), .name("pictures"), .flag("multiple"), .attribute("accept", "image/*"),
                        .attribute("capture", "environment"), .flag("required"))
                }
                HTML.small {
                    "Up to \(maximumFiles) pictures, \(maximumFileSize >> 20) MB each. On a phone this opens the camera."
                }
                HTML.button(.type("submit"), .class("primary")) { "Add to the list" }
            }
        }
    }
}
