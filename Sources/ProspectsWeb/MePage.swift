import SafeHTML

/// One's own card: a form for the fields, and the card's QR code (PNG and SVG) when it can be made.
struct MePage {
    var name: String
    var email: String
    var phone: String
    var organization: String
    /// The card's query string (for the image URLs) when the fields make a card.
    var cardQuery: String?
    var payload: String?
    var error: String?

    var html: HTML {
        PageLayout.page(title: "Me", section: .me) {
            HTML.h1 { "My card" }
            HTML.form(.method("get"), .action("/me"), .class("stack")) {
                input("Name", "name", name, type: "text", required: true)
                input("Email", "email", email, type: "email", required: true)
                input("Phone", "phone", phone, type: "tel", required: false)
                input("Organisation", "organization", organization, type: "text", required: false)
                HTML.button(.type("submit"), .class("primary")) { "Show my code" }
            }
            if let error {
                HTML.p(.class("notice"), .id("card-error")) { error }
            }
            if let cardQuery, let payload {
                HTML.section {
                    HTML.img(
                        .class("qr"), .id("card-qr"), .src("/me/card.png?\(cardQuery)"),
                        .attribute("alt", "QR code of my card"))
                    HTML.p {
                        HTML.a(.href("/me/card.png?\(cardQuery)"), .attribute("download", "card.png")) { "PNG" }
                        " · "
                        HTML.a(.href("/me/card.svg?\(cardQuery)"), .attribute("download", "card.svg")) { "SVG" }
                    }
                    HTML.p(.class("payload")) { payload }
                }
            }
        }
    }

    private func input(_ label: String, _ name: String, _ value: String, type: String, required: Bool) -> HTML {
        HTML.label {
            label
            HTML.br()
            HTML.input(.type(type), .name(name), .value(value), .flag("required", required))
        }
    }
}
