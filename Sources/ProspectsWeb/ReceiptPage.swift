import ProspectsService
import SafeHTML

/// What one upload became, by its receipt: each picture's outcome, or that nothing of it has arrived.
struct ReceiptPage {
    var id: String
    var receipt: UploadReceipt?

    var html: HTML {
        PageLayout.page(title: "Upload receipt", section: .scan) {
            HTML.h1 { "Upload receipt" }
            if let receipt {
                HTML.p {
                    receipt.state == .answered
                        ? "This upload was received whole; each picture:"
                        : "The server stopped while this upload was arriving; at its next start it filed what had "
                            + "arrived:"
                }
                HTML.ul(.class("outcomes"), .id("receipt")) {
                    for file in receipt.files {
                        for line in file.lines {
                            HTML.li(.class(line.kind.rawValue)) {
                                HTML.strong { file.fileName }
                                ": "
                                line.text
                            }
                        }
                    }
                }
            } else {
                HTML.p {
                    "Nothing of this upload has been filed (yet): if it was cut short, the server files what arrived "
                        + "when it starts again. Otherwise send the pictures again."
                }
            }
            HTML.p { HTML.a(.href("/scan")) { "Scan more" } }
        }
    }
}
