import Foundation
import ProspectStore
import ProspectsCore

/// vCard 4.0 (RFC 6350) cards for prospects, for importing into an address book.
public enum VCardWriter {
    /// The longest a physical line may be, in octets, without its CRLF (RFC 6350 §3.2).
    static let maxLineOctets = 75

    /// One card: `BEGIN`, `VERSION`, `UID`, `FN`, `N`, `EMAIL`, then the other addresses, a `TEL` per phone, `ORG`,
    /// `TITLE`,
    /// `CATEGORIES` (the tags), a `NOTE` per note when known (its author and time as `X-PROSPECTS-AUTHOR` and
    /// `X-PROSPECTS-WRITTEN` parameters), the rest as `X-PROSPECTS-` properties (`RATING`, `CONTACTED`,
    /// `REMIND-AT`, `ADDED`, `LAST-SEEN`, `SCAN-COUNT`, `SOURCE`, `EVENT`, `COLLECTED-BY`; times in ISO 8601 UTC to the
    /// millisecond), `REV`, `END`. `import` reads them all back (`VCardFileReader`).
    ///
    /// Lines end with CRLF and are folded at 75 octets without splitting a UTF-8 sequence. The `UID` is a
    /// version 5 UUID of `mailto:` + the dedup key, so exporting the same person again, from any store, gives the
    /// same `UID` and an address book can update the contact instead of adding a copy. `N` is the card's own
    /// name parts when it had them; otherwise a best effort: the last word is the family name and the rest the
    /// given names; a one-word name (or one written without spaces, as Chinese names often are) goes into the
    /// given name, so `N` never contradicts `FN`.
    public static func card(_ stored: StoredProspect, notes: [ProspectNote] = []) -> String {
        let prospect = stored.prospect
        let uid = NameBasedUUID.make(namespace: NameBasedUUID.urlNamespace, name: "mailto:" + stored.key)
        var card = ""
        card += contentLine("BEGIN:VCARD")
        card += contentLine("VERSION:4.0")
        card += contentLine("UID:urn:uuid:" + uid.uuidString.lowercased())
        card += contentLine("FN:" + escape(prospect.name))
        card += contentLine("N:" + (prospect.nameParts.map(structuredName) ?? structuredName(prospect.name)))
        card += contentLine("EMAIL:" + escape(prospect.email))
        for email in prospect.otherEmails { card += contentLine("EMAIL:" + escape(email)) }
        if let phone = prospect.phone, !phone.isEmpty { card += contentLine("TEL:" + escape(phone)) }
        for phone in prospect.otherPhones { card += contentLine("TEL:" + escape(phone)) }
        if let organization = prospect.organization, !organization.isEmpty {
            // One component: a `;` inside the name is escaped rather than read as an organisational unit.
            card += contentLine("ORG:" + escape(organization))
        }
        if let title = prospect.title, !title.isEmpty { card += contentLine("TITLE:" + escape(title)) }
        if !stored.tags.isEmpty { card += contentLine("CATEGORIES:" + stored.tags.map(escape).joined(separator: ",")) }
        for note in notes {
            let author = VCardDetails.ParameterValue.encode(note.author)
            let written = VCardDetails.ParameterValue.encode(ISO8601.string(note.writtenAt))
            card += contentLine(
                "NOTE;X-PROSPECTS-AUTHOR=\(author);X-PROSPECTS-WRITTEN=\(written):" + escape(note.text))
        }
        // What an address book has no property for, under names of our own (RFC 6350 §6.10), which import reads.
        if stored.rating != .none { card += contentLine("X-PROSPECTS-RATING:" + stored.rating.rawValue) }
        card += contentLine("X-PROSPECTS-CONTACTED:" + (stored.isContacted ? "true" : "false"))
        if let remindAt = stored.remindAt {
            card += contentLine("X-PROSPECTS-REMIND-AT:" + ISO8601.string(remindAt))
        }
        card += contentLine("X-PROSPECTS-ADDED:" + ISO8601.string(stored.createdAt))
        card += contentLine("X-PROSPECTS-LAST-SEEN:" + ISO8601.string(stored.lastSeenAt))
        card += contentLine("X-PROSPECTS-SCAN-COUNT:" + String(stored.scanCount))
        card += contentLine("X-PROSPECTS-SOURCE:" + escape(stored.firstSource))
        if let event = stored.firstEvent { card += contentLine("X-PROSPECTS-EVENT:" + escape(event)) }
        if let collector = stored.firstCollectedBy {
            card += contentLine("X-PROSPECTS-COLLECTED-BY:" + escape(collector))
        }
        card += contentLine("REV:" + stored.lastSeenAt.formatted(timestampStyle))
        card += contentLine("END:VCARD")
        return card
    }

    /// The card's own parts, `family;given;additional;prefixes;suffixes`, each component escaped.
    static func structuredName(_ parts: NameParts) -> String {
        parts.components.map(escape).joined(separator: ";")
    }

    /// `family;given;additional;prefixes;suffixes`, each component escaped (see `PersonName`).
    static func structuredName(_ name: String) -> String {
        let (family, given) = PersonName.familyAndGiven(name)
        return escape(family) + ";" + escape(given) + ";;;"
    }

    /// A text value escaped per RFC 6350 §3.4: `\`, `,` and `;` get a backslash, a line break becomes `\n`.
    /// Other C0 controls cannot appear in a content line at all and are dropped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\r": out += "\\n"
            case "\n": if !previousWasCR { out += "\\n" }  // CRLF is one line break
            case "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `line` folded to at most 75 octets per physical line (a CRLF and a space start each continuation), and
    /// terminated with CRLF. A fold never falls inside a UTF-8 sequence, so every physical line is valid UTF-8.
    static func contentLine(_ line: String) -> String {
        let bytes = Array(line.utf8)
        if bytes.count <= maxLineOctets { return line + "\r\n" }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 24 + 8)
        var start = 0
        var room = maxLineOctets
        while bytes.count - start > room {
            var cut = start + room
            // Back up to the first byte of a scalar: continuation bytes are 0b10xxxxxx.
            while cut > start && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            out.append(contentsOf: bytes[start..<cut])
            out.append(contentsOf: [0x0D, 0x0A, 0x20])
            start = cut
            room = maxLineOctets - 1  // the leading space counts
        }
        out.append(contentsOf: bytes[start...])
        out.append(contentsOf: [0x0D, 0x0A])
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 6350 timestamps: basic ISO 8601 in UTC, `20240131T120000Z`.
    private static let timestampStyle = Date.ISO8601FormatStyle(
        dateSeparator: .omitted, dateTimeSeparator: .standard, timeSeparator: .omitted, timeZone: .gmt)
}
