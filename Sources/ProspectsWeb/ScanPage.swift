import ProspectsService
import SafeHTML

/// Scan by upload: several pictures at once; on a phone the file input opens the camera. After an upload, each
/// file's outcome.
struct ScanPage {
    var report: [UploadOutcome]?
    var csrfToken: String
    var maximumFiles: Int
    var maximumFileSize: Int
    /// The id this page's upload is kept under (`/scan/receipts/ID`), asked about when no answer comes.
    var receipt: String

    var html: HTML {
        PageLayout.page(title: "Scan", section: .scan, scripts: [.camera, .dropUpload]) {
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
            camera
            HTML.form(
                .method("post"), .action("/scan?receipt=\(receipt)"), .attribute("enctype", "multipart/form-data"),
                .class("stack"),
                .id("upload-form")
            ) {
                PageLayout.csrfField(csrfToken)
                HTML.label {
                    "Pictures of contact QR codes "
                    HTML.input(
                        .type("file"), .name("pictures"), .flag("multiple"), .attribute("accept", "image/*"),
                        .attribute("capture", "environment"), .flag("required"))
                }
                HTML.small {
                    "Up to \(maximumFiles) pictures, \(maximumFileSize >> 20) MB each. On a phone this opens the camera; "
                        + "on a computer, pictures can be dropped here."
                }
                HTML.button(.type("submit"), .class("primary")) { "Add to the list" }
                HTML.small {
                    "No answer (the network or the server dropped)? "
                    HTML.a(.href("/scan/receipts/\(receipt)"), .class("receipt")) { "See what was kept" }
                    "."
                }
            }
        }
    }

    /// The live camera, shown by its script where the page is a secure context (localhost or HTTPS); elsewhere the
    /// script shows the note that says why there is none. Without scripts neither shows: the upload form remains.
    private var camera: HTML {
        HTML {
            HTML.section(.id("camera"), .flag("hidden")) {
                HTML.h2 { "Live camera" }
                PageLayout.csrfField(csrfToken)
                HTML.p {
                    HTML.button(.type("button"), .id("camera-start"), .class("primary")) { "Start camera" }
                }
                HTML.p(.id("camera-status"), .attribute("role", "status"))
                HTML.element(
                    "video",
                    [
                        .id("camera-video"), .flag("muted"), .flag("playsinline"),
                        .attribute("aria-label", "Camera view"),
                    ])
                HTML.ul(.id("camera-results"), .class("outcomes"))
            }
            HTML.p(.id("camera-insecure"), .class("notice"), .flag("hidden")) {
                "The live camera needs a secure page: open this server at https:// (serve --tls-self-signed) or on "
                "localhost. Pictures can still be uploaded below."
            }
        }
    }
}
