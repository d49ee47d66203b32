import Foundation
import HTTPServer
import ProspectsCore
import ProspectsService
import QRDecoding

/// The Me page: one's own card as a QR code (PNG or SVG).
extension WebApplication {
    /// What the Me page's query asks for.
    enum CardRequest {
        /// No name or no email yet.
        case none
        case card(ContactCard)
        /// Why the fields make no card.
        case invalid(String)
    }

    /// The card the Me page's query describes, or why it cannot be made.
    func card(_ request: HTTPRequest) -> CardRequest {
        let value = { (name: String) in
            request.queryValue(name).map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let name = value("name"), let email = value("email") else { return .none }
        do throws(CardError) {
            return .card(
                try ContactCard(
                    name: name, email: email, phone: value("phone"), organization: value("organization"), format: nil))
        } catch {
            switch error {
            case .invalid(let error): return .invalid(error.message)
            case .detailsNeedRicherFormat, .unreadableInFormat:
                return .invalid("this card cannot be written as a QR code that reads back as the same contact")
            }
        }
    }

    func mePage(_ context: Context) -> HTTPResponse {
        let request = context.request
        var me = MePage(
            name: request.queryValue("name") ?? "", email: request.queryValue("email") ?? "",
            phone: request.queryValue("phone") ?? "", organization: request.queryValue("organization") ?? "")
        switch card(request) {
        case .card(let card):
            me.payload = card.payload
            let prospect = card.prospect
            var items = [("name", prospect.name), ("email", prospect.email)]
            if let phone = prospect.phone { items.append(("phone", phone)) }
            if let organization = prospect.organization { items.append(("organization", organization)) }
            me.cardQuery = URLEncoding.query(items)
        case .invalid(let message):
            me.error = message
        case .none:
            break
        }
        return page(me.html)
    }

    func cardImage(_ context: Context, svg: Bool) -> HTTPResponse {
        guard case .card(let card) = card(context.request) else {
            return .text("A card needs a valid name and email.\n", status: 400)
        }
        do {
            if svg { return .text(try card.svg(), contentType: "image/svg+xml") }
            return HTTPResponse(headers: ["Content-Type": "image/png"], body: .bytes(try card.png(moduleSize: 8)))
        } catch {
            return .text("Cannot make the QR code: \(error)\n", status: 500)
        }
    }
}
