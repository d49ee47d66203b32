/// Reads DoCoMo `MATMSG:` "send an email" codes (`MATMSG:TO:paul@example.com;SUB:Hi;BODY:…;;`).
///
/// Such a code carries an address but no name. The prospect is named after the address's local part,
/// as written (`paul.hudson@example.com` → `paul.hudson`): predictable, never an invented capitalisation,
/// and it keeps the contact instead of losing it. `SUB` and `BODY` are ignored.
enum MatMsgParser {
    /// The prefix, compared without regard to ASCII case.
    static let prefix = "MATMSG:"

    /// Parses `body`, the payload after the `MATMSG:` prefix. A `TO` list gives its first address.
    static func parse(_ body: some Sequence<Unicode.Scalar>) -> Result<Prospect, ScanError> {
        let fields = DoCoMoFields(body)
        let firstAddress = fields.first("TO").flatMap { raw in
            EscapedText.split(raw, on: ",").first { !ScalarText.trimmedScalars($0).isEmpty }
        }
        return NamelessAddress.prospect(email: firstAddress.map { EscapedText.unescape($0, newlines: false) })
    }
}
