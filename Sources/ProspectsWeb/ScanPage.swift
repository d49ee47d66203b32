import ProspectsService
import SafeHTML

/// The scan page: the quick scan (live camera and the card of each code read) where the page is a secure context,
/// and the upload of several pictures at once (on a phone the file input opens the camera); after an upload, each
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

    /// The quick scan: the live camera, shown by its script where the page is a secure context (localhost or
    /// HTTPS), with the card of the last code read (rate, tag, note it without leaving the page) and the session's
    /// last 20 scans; elsewhere the script shows the note that says why there is none. Without scripts neither
    /// shows: the upload form remains.
    private var camera: HTML {
        HTML {
            HTML.section(.id("camera"), .flag("hidden")) {
                PageLayout.csrfField(csrfToken)
                HTML.div(.class("camera-controls")) {
                    HTML.button(.type("button"), .id("camera-start"), .class("primary")) { "Start camera" }
                    HTML.button(.type("button"), .id("camera-flip"), .flag("hidden")) { "Front camera" }
                    HTML.button(
                        .type("button"), .id("camera-torch"), .flag("hidden"), .attribute("aria-pressed", "false")
                    ) { "Torch" }
                }
                HTML.p(.id("camera-status"), .attribute("role", "status"))
                HTML.element(
                    "video",
                    [
                        .id("camera-video"), .flag("muted"), .flag("playsinline"),
                        .attribute("aria-label", "Camera view"),
                    ])
                card
                HTML.label(.class("event-field")) {
                    "Event "
                    HTML.input(
                        .type("text"), .id("scan-event"), .attribute("autocomplete", "off"),
                        .attribute("placeholder", "optional, kept for the next scans"))
                }
                HTML.h2 { "This session" }
                HTML.ol(.id("camera-results"), .class("outcomes scans"))
            }
            HTML.p(.id("camera-insecure"), .class("notice"), .flag("hidden")) {
                "The live camera needs a secure page: open this server at https:// (serve --tls-self-signed) or on "
                "localhost. Pictures can still be uploaded below."
            }
        }
    }

    /// The card of the code read last, filled by the script: who it is, new or seen before, one tap for the rating,
    /// tags and a note, each saved to the lead (or to the queued scan while the server is out of reach).
    private var card: HTML {
        HTML.article(.id("scan-card"), .class("scan-card"), .flag("hidden"), .attribute("aria-live", "polite")) {
            HTML.p(.id("card-state"), .class("card-state"))
            HTML.h2(.id("card-name"))
            HTML.p(.id("card-organization"), .class("card-organization"))
            HTML.div(.class("ratings"), .attribute("role", "group"), .attribute("aria-label", "Rating")) {
                for (rating, label) in [("hot", "Hot"), ("warm", "Warm"), ("cold", "Cold")] {
                    HTML.button(
                        .type("button"), .class("rating-\(rating)"), .data("rating", rating),
                        .attribute("aria-pressed", "false")
                    ) { label }
                }
            }
            HTML.ul(.id("card-tags"), .class("tags"))
            HTML.form(.id("card-tag-form"), .class("inline")) {
                HTML.input(
                    .type("text"), .name("tag"), .attribute("aria-label", "Tags, comma-separated"),
                    .attribute("placeholder", "Tags, comma-separated"), .attribute("autocomplete", "off"))
                HTML.button(.type("submit")) { "Add tags" }
            }
            HTML.form(.id("card-note-form"), .class("stack")) {
                HTML.textarea(
                    .name("note"), .attribute("rows", "2"), .attribute("aria-label", "Note"),
                    .attribute("placeholder", "Note")
                ) { "" }
                HTML.button(.type("submit")) { "Save note" }
            }
            HTML.p(.id("card-saved"), .class("card-saved"), .attribute("role", "status"))
        }
    }
}
