/// Reads NTT DoCoMo's `MECARD:` contact codes (`MECARD:N:Hudson,Paul;EMAIL:paul@example.com;;`).
///
/// Uses `N` (written `Last,First`, shown `First Last`, and kept in its parts), the first non-blank `EMAIL` (later
/// ones are other addresses), `TEL` (likewise: later ones are other phones), `ORG`, `TITLE` and `NOTE`. `NICKNAME`, `SOUND`, `ADR`, `URL`, `BDAY` and
/// unknown keys are read past and ignored. A card without `N` is refused with `.emptyName`: the nickname is not a
/// name to file a prospect under.
enum MECardParser {
    /// The prefix, compared without regard to ASCII case.
    static let prefix = "MECARD:"

    /// Parses `body`, the payload after the `MECARD:` prefix.
    static func parse(_ body: some Sequence<Unicode.Scalar>) -> Result<Prospect, ScanError> {
        let fields = DoCoMoFields(body)
        let emails = fields.texts("EMAIL")
        let phones = fields.texts("TEL")
        return ProspectBuilder.build(
            name: fields.first("N").map(displayName),
            email: emails.first,
            phone: phones.first,
            organization: fields.text("ORG"),
            title: fields.text("TITLE"),
            nameParts: fields.first("N").flatMap(nameParts),
            otherEmails: Array(emails.dropFirst()),
            note: fields.text("NOTE"),
            otherPhones: Array(phones.dropFirst())
        )
    }

    /// `Hudson,Paul` → family `Hudson`, given `Paul`; nil for a name without a comma, whose parts are unknown.
    private static func nameParts(_ raw: [Unicode.Scalar]) -> [String]? {
        let components = EscapedText.split(raw, on: ",").prefix(2).map { EscapedText.unescape($0, newlines: false) }
        return components.count == 2 ? components : nil
    }

    /// `Hudson,Paul` → `Paul Hudson`; a value without an unescaped comma is the whole name.
    ///
    /// Only the first two components count (DoCoMo defines no more); `\,` is a comma inside a component.
    private static func displayName(_ raw: [Unicode.Scalar]) -> String {
        let components = EscapedText.split(raw, on: ",").prefix(2).map {
            ScalarText.trimmed(EscapedText.unescape($0, newlines: false))
        }
        return components.reversed().filter { !$0.isEmpty }.joined(separator: " ")
    }
}
