/// The text of one's own contact card, in a format `PayloadParser` reads back (the app's "Me" tab).
public enum CardPayload {
    public enum Format: String, Sendable, CaseIterable {
        /// `Name\nemail`, the Hot Prospects format.
        case lines
        /// `MECARD:N:…;EMAIL:…;;`, which phone camera apps offer to add as a contact.
        case mecard
        /// vCard 3.0, the most widely understood version in QR codes.
        case vcard
    }

    public static func make(_ prospect: Prospect, format: Format) -> String {
        switch format {
        case .lines:
            return "\(prospect.name)\n\(prospect.email)"
        case .mecard:
            var text = "MECARD:N:\(mecardEscaped(prospect.name));"
            if let phone = prospect.phone { text += "TEL:\(mecardEscaped(phone));" }
            if let organization = prospect.organization { text += "ORG:\(mecardEscaped(organization));" }
            return text + "EMAIL:\(mecardEscaped(prospect.email));;"
        case .vcard:
            // N is required in vCard 3.0 (RFC 2426), and some contact apps file a card without it under no name.
            let (family, given) = PersonName.familyAndGiven(prospect.name)
            var lines = [
                "BEGIN:VCARD", "VERSION:3.0", "N:\(vcardEscaped(family));\(vcardEscaped(given));;;",
                "FN:\(vcardEscaped(prospect.name))",
            ]
            if let organization = prospect.organization { lines.append("ORG:\(vcardEscaped(organization))") }
            if let phone = prospect.phone { lines.append("TEL:\(vcardEscaped(phone))") }
            lines += ["EMAIL:\(vcardEscaped(prospect.email))", "END:VCARD"]
            return lines.joined(separator: "\r\n") + "\r\n"
        }
    }

    // Both escape per Unicode scalar, as the parsers split: a `,` followed by a combining mark is one
    // `Character` that is not equal to ",", yet a reader still sees the comma (found by fuzzing).
    private static func mecardEscaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if "\\;:,".unicodeScalars.contains(scalar) { out.append("\\") }
            out.append(scalar)
        }
        return String(out)
    }

    private static func vcardEscaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", ",", ";": out.append(contentsOf: ["\\", scalar])
            case "\n": out.append(contentsOf: ["\\", "n"])
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
