import ProspectsCore
import QRDecoding

/// One's own contact card (the app's "Me" tab): a validated contact in a payload format that reads back as it.
public struct ContactCard: Sendable, Hashable {
    public let prospect: Prospect
    public let format: CardPayload.Format

    /// The contact validated as a scanned one would be, in `format` (see `format(_:phone:organization:)`).
    public init(name: String, email: String, phone: String?, organization: String?, format: CardPayload.Format?)
        throws(CardError)
    {
        let format = try Self.format(format, phone: phone, organization: organization)
        let parser = PayloadParser()
        let card: Prospect
        switch parser.prospect(name: name, email: email, phone: phone, organization: organization) {
        case .success(let built): card = built
        case .failure(let error): throw .invalid(error)
        }
        // What the card says must read back as this very contact: a name starting `MECARD:` or `tel:` cannot be
        // the first of two lines, because a reader takes it for that kind of code.
        switch parser.parse(CardPayload.make(card, format: format)) {
        case .success(let read) where read.name == card.name && read.email == card.email:
            break
        case .success, .failure:
            throw .unreadableInFormat(format)
        }
        prospect = card
        self.format = format
    }

    /// The format a card is written in: the one asked for, else `lines`, or `mecard` when a phone or an
    /// organisation is given; `lines` with either is refused, since it has room for neither.
    public static func format(_ format: CardPayload.Format?, phone: String?, organization: String?)
        throws(CardError) -> CardPayload.Format
    {
        let hasDetails = phone != nil || organization != nil
        let format = format ?? (hasDetails ? .mecard : .lines)
        if hasDetails && format == .lines { throw .detailsNeedRicherFormat }
        return format
    }

    /// The text the QR code carries.
    public var payload: String { CardPayload.make(prospect, format: format) }

    /// The card as a QR code PNG, `moduleSize` pixels per module.
    public func png(moduleSize: Int) throws(ImageError) -> [UInt8] {
        try PNGWriter.encode(QRCodeImage.make(text: payload, moduleSize: moduleSize))
    }

    /// The card as a QR code in SVG: one unit per module, a 4-module quiet zone, dark runs of a row as one path
    /// segment each; it scales to any size without blur.
    public func svg() throws(ImageError) -> String {
        let image = try QRCodeImage.make(text: payload, moduleSize: 1, margin: 4)
        var path = ""
        for y in 0..<image.height {
            var x = 0
            while x < image.width {
                guard image.pixels[y * image.width + x] < 128 else {
                    x += 1
                    continue
                }
                let start = x
                while x < image.width, image.pixels[y * image.width + x] < 128 { x += 1 }
                path += "M\(start) \(y)h\(x - start)v1h-\(x - start)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(image.width) \(image.height)" \
            shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/>\
            <path fill="#000" d="\(path)"/></svg>

            """
    }
}

/// Why a contact card cannot be made.
public enum CardError: Error, Sendable, Hashable {
    /// A phone or an organisation was given with the `lines` format, which carries a name and an address only.
    case detailsNeedRicherFormat
    /// A field breaks the rules a scanned contact must meet.
    case invalid(ScanError)
    /// The card would read back as another contact or another kind of code in this format.
    case unreadableInFormat(CardPayload.Format)
}
