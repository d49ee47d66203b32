/// Turns the text of one QR code into a prospect, or into the reason it is not one.
///
/// Formats, tried in this order on the payload without a leading BOM and white space: `MECARD:`,
/// `BEGIN:VCARD`, `MATMSG:`, `mailto:` (prefixes in any case), other known codes (URLs, Wi-Fi, …, refused
/// with `.unsupportedPayload`), and last the two-line `Name\nemail` contract and its one-line siblings
/// `Name <email>` and an address alone (see `TwoLineParser`). Whatever the format, the name, email, phone and
/// organisation are trimmed, put in Unicode NFC and refused if they hold unsafe characters (see
/// `SafeText.isUnsafe`), and the email address must pass `EmailAddress.validate`.
///
/// Pure and stateless, so one value can be shared by every thread.
public struct PayloadParser: Sendable {
    /// The largest payload parsed, in UTF-8 bytes: 2,048.
    ///
    /// A QR code holds up to 2,953 bytes, but a contact — even a full vCard with address, several phones
    /// and a note — takes 200–800; codes near the maximum are documents, keys or base64 blobs. The limit
    /// is checked before anything else, which bounds the work and what an error message could quote.
    public static let maxPayloadBytes = 2_048

    public init() {}

    /// The payload text of one QR code → a prospect or the reason it is not one.
    public func parse(_ payload: String) -> Result<Prospect, ScanError> {
        parseDetailed(payload).map(\.prospect)
    }

    /// The raw bytes of one QR code → a prospect or the reason it is not one.
    ///
    /// Prefer this when the scanner gives bytes: a vCard folded inside a multi-byte letter only becomes
    /// valid UTF-8 once unfolded, which a `String` cannot represent. Bytes that are not UTF-8 give
    /// `.invalidText`.
    public func parse(utf8 bytes: some Collection<UInt8>) -> Result<Prospect, ScanError> {
        parseDetailed(utf8: bytes).map(\.prospect)
    }

    /// A prospect from fields already split apart (an imported list's columns, `encode`'s options), with the
    /// checks every format shares: trimmed, NFC, no unsafe scalars, a valid address, blank optional fields left out.
    ///
    /// No format is detected: a name that starts with `MECARD:` or `tel:` is just a name. Joining the fields as
    /// `"\(name)\n\(email)"` and calling `parse` instead would let a name field carry a whole MECARD whose own
    /// `EMAIL:` replaces the address column. The fields together may hold `maxPayloadBytes`, as a code may.
    ///
    /// Of several addresses (`otherEmails` after `email`), the first valid one becomes the address when `email` is
    /// not valid, and the other valid ones are kept. Phones after `phone` (`otherPhones`) are the prospect's too.
    public func prospect(
        name: String, email: String, phone: String? = nil, organization: String? = nil, title: String? = nil,
        nameParts: [String]? = nil, otherEmails: [String] = [], note: String? = nil, otherPhones: [String] = []
    ) -> Result<Prospect, ScanError> {
        var bytes = name.utf8.count + email.utf8.count + (phone?.utf8.count ?? 0) + (organization?.utf8.count ?? 0)
        bytes += (title?.utf8.count ?? 0) + (note?.utf8.count ?? 0) + otherEmails.reduce(0) { $0 + $1.utf8.count }
        if !otherPhones.isEmpty { bytes += otherPhones.reduce(0) { $0 + $1.utf8.count } }
        guard bytes <= Self.maxPayloadBytes else {
            return .failure(.payloadTooLong(bytes: bytes, limit: Self.maxPayloadBytes))
        }
        var email = email
        var otherEmails = otherEmails
        if !otherEmails.isEmpty, case .failure = ProspectBuilder.cleanEmail(email),
            let valid = otherEmails.firstIndex(where: { (try? ProspectBuilder.cleanEmail($0).get()) != nil })
        {
            otherEmails.insert(email, at: 0)
            email = otherEmails.remove(at: valid + 1)
        }
        return ProspectBuilder.build(
            name: name, email: email, phone: phone, organization: organization, title: title, nameParts: nameParts,
            otherEmails: otherEmails, note: note, otherPhones: otherPhones)
    }

    /// Like `parse(_:)`, and also says which format the payload was recognised as.
    public func parseDetailed(_ payload: String) -> Result<ParsedPayload, ScanError> {
        let bytes = payload.utf8.count
        guard bytes <= Self.maxPayloadBytes else {
            return .failure(.payloadTooLong(bytes: bytes, limit: Self.maxPayloadBytes))
        }
        var scalars = Array(payload.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }  // a UTF-8 BOM some generators write

        let start = scalars.firstIndex { !ScalarText.isBlank($0) && !ScalarText.isLineBreak($0) } ?? scalars.endIndex
        let body = scalars[start...]
        if ScalarText.hasPrefix(body, ignoringCase: MECardParser.prefix) {
            return MECardParser.parse(body.dropFirst(MECardParser.prefix.count)).tagged(.mecard)
        }
        if VCardParser.recognises(ScalarText.string(body).utf8) {
            return VCardParser.parse(utf8: ScalarText.string(body).utf8).tagged(.vcard)
        }
        if ScalarText.hasPrefix(body, ignoringCase: MatMsgParser.prefix) {
            return MatMsgParser.parse(body.dropFirst(MatMsgParser.prefix.count)).tagged(.matmsg)
        }
        if ScalarText.hasPrefix(body, ignoringCase: MailtoParser.prefix) {
            return MailtoParser.parse(body.dropFirst(MailtoParser.prefix.count)).tagged(.mailto)
        }
        if let summary = PayloadSummary.recognise(Array(body)) {
            return .failure(.unsupportedPayload(summary: summary))
        }
        return TwoLineParser.parse(scalars)
    }

    /// Like `parse(utf8:)`, and also says which format the payload was recognised as.
    public func parseDetailed(utf8 bytes: some Collection<UInt8>) -> Result<ParsedPayload, ScanError> {
        let count = bytes.count
        guard count <= Self.maxPayloadBytes else {
            return .failure(.payloadTooLong(bytes: count, limit: Self.maxPayloadBytes))
        }
        var bytes = Array(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if VCardParser.recognises(bytes) {
            return VCardParser.parse(utf8: bytes).tagged(.vcard)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.invalidText) }
        return parseDetailed(text)
    }
}

extension Result where Success == Prospect, Failure == ScanError {
    /// The prospect paired with the format that produced it.
    fileprivate func tagged(_ format: PayloadFormat) -> Result<ParsedPayload, ScanError> {
        map { ParsedPayload(prospect: $0, format: format) }
    }
}
