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
    public func png(moduleSize: Int) throws(EncodeError) -> [UInt8] {
        try PNGWriter.encode(QRCodeImage.make(text: payload, moduleSize: moduleSize))
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
