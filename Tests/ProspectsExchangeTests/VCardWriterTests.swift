import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import Testing

@Suite struct VCardWriterTests {
    /// The UID is Python's `uuid.uuid5(uuid.NAMESPACE_URL, "mailto:paul@example.com")`.
    @Test func simpleCard() {
        let card = VCardWriter.card(
            Fixtures.stored(1, "Paul Hudson", "paul@example.com", phone: "+1 555 0100", organization: "HWS"))
        #expect(
            card
                == [
                    "BEGIN:VCARD", "VERSION:4.0", "UID:urn:uuid:9529f271-fdc4-5c6a-b742-183c5fa5b8d9",
                    "FN:Paul Hudson", "N:Hudson;Paul;;;", "EMAIL:paul@example.com", "TEL:+1 555 0100", "ORG:HWS",
                    "X-PROSPECTS-CONTACTED:false", "X-PROSPECTS-ADDED:2024-05-29T16:26:40.250Z",
                    "X-PROSPECTS-LAST-SEEN:2024-05-30T16:26:40.500Z", "X-PROSPECTS-SCAN-COUNT:2",
                    "X-PROSPECTS-SOURCE:scans/1.png", "REV:20240530T162640Z", "END:VCARD", "",
                ].joined(separator: "\r\n"))
    }

    @Test func uidIsStableAndFollowsTheDedupKey() {
        let a = VCardWriter.card(Fixtures.stored(1, "Paul", "Paul@Example.com"))
        let b = VCardWriter.card(Fixtures.stored(99, "Paul H", " paul@example.COM"))
        #expect(uidLine(a) == uidLine(b))
        #expect(uidLine(a) != uidLine(VCardWriter.card(Fixtures.stored(1, "Paul", "other@example.com"))))
    }

    @Test func escapesTextValues() {
        let card = VCardWriter.card(Fixtures.awkward[4])
        #expect(card.contains(#"FN:Back\\slash\, Comma\; Semi"# + "\r\n"))
        // One comma: read as "Family, Given", each part escaped.
        #expect(card.contains(#"N:Back\\slash;Comma\; Semi;;;"# + "\r\n"))
        #expect(card.contains(#"ORG:A\\B\, C\; D"# + "\r\n"))
        let multiline = VCardWriter.card(Fixtures.awkward[6])
        #expect(multiline.contains(#"ORG:Line one\nline two"# + "\r\n"))
        let crlf = VCardWriter.card(Fixtures.stored(8, "X", "x@example.com", organization: "a\r\nb\rc\u{7}d"))
        #expect(crlf.contains(#"ORG:a\nb\nc"# + "d\r\n"))
    }

    /// "Hudson, Paul" is how lists write family name first: N gets Hudson as the family name, not "Paul" with
    /// "Hudson," as the given one.
    @Test func aNameWithOneCommaIsFamilyThenGiven() {
        func structured(_ name: String) -> String? {
            VCardWriter.card(Fixtures.stored(1, name, "x@example.com")).split(separator: "\r\n")
                .first { $0.hasPrefix("N:") }.map(String.init)
        }
        #expect(structured("Hudson, Paul") == "N:Hudson;Paul;;;")
        #expect(structured("van Beethoven, Ludwig") == "N:van Beethoven;Ludwig;;;")
        // Two commas are no "Family, Given": the last word is the family name, as for any other name.
        #expect(structured("Smith, Jr., John") == #"N:John;Smith\, Jr.\,;;;"#)
    }

    /// Chinese, Japanese and Korean names are written family name first: 山田 太郎 is Yamada Tarō.
    @Test func anEastAsianNameIsFamilyThenGiven() {
        for (name, n) in [
            ("山田 太郎", "N:山田;太郎;;;"), ("김 민준", "N:김;민준;;;"), ("やまだ たろう", "N:やまだ;たろう;;;"),
            ("Tarō Yamada", "N:Yamada;Tarō;;;"),
        ] {
            #expect(VCardWriter.card(Fixtures.stored(1, name, "x@example.com")).contains(n + "\r\n"), "\(name)")
        }
    }

    @Test func nameWithoutSpacesIsTheGivenName() {
        #expect(VCardWriter.card(Fixtures.awkward[2]).contains("N:;李小龙;;;\r\n"))
        #expect(VCardWriter.card(Fixtures.stored(1, "Cher", "c@example.com")).contains("N:;Cher;;;\r\n"))
        #expect(
            VCardWriter.card(Fixtures.stored(1, "Ludwig van Beethoven", "l@example.com"))
                .contains("N:Beethoven;Ludwig van;;;\r\n"))
    }

    @Test(arguments: Fixtures.awkward)
    func foldsAt75OctetsAndUnfoldsByteExact(_ stored: StoredProspect) throws {
        let card = VCardWriter.card(stored)
        let bytes = Array(card.utf8)
        #expect(bytes.suffix(2) == [0x0D, 0x0A])
        #expect(!bytes.contains(0x0A) || Self.everyLineFeedFollowsCR(bytes))
        for physical in Self.split(bytes, on: [0x0D, 0x0A]).dropLast() {
            #expect(physical.count <= 75, "a \(physical.count)-octet line")
            #expect(String(validating: physical, as: UTF8.self) != nil, "a line splits a UTF-8 sequence")
        }
        // Unfolding (RFC 6350 §3.2: remove CRLF followed by one space) gives back each logical line exactly.
        let unfolded = card.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("FN:" + Self.escape(stored.prospect.name) + "\r\n"))
    }

    @Test func longNameFoldsInsideMultibyteCharacters() {
        let card = VCardWriter.card(Fixtures.awkward[3])
        let lines = card.components(separatedBy: "\r\n")
        let fnStart = lines.firstIndex { $0.hasPrefix("FN:") }!
        // `FN:` + 71 ASCII = 74 octets; the two-byte ü would end at octet 76, so the first line stops before it.
        #expect(lines[fnStart] == "FN:" + String(repeating: "a", count: 71))
        #expect(lines[fnStart + 1].hasPrefix(" ü李"))
        #expect(lines[fnStart + 1].utf8.count <= 75)
        #expect(lines[fnStart + 2].hasPrefix(" "))
    }

    func uidLine(_ card: String) -> Substring? {
        card.split(separator: "\r\n").first { $0.hasPrefix("UID:") }
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ",", with: "\\,")
            .replacingOccurrences(of: ";", with: "\\;").replacingOccurrences(of: "\n", with: "\\n")
    }

    static func split(_ bytes: [UInt8], on separator: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + 1 < bytes.count && bytes[index] == separator[0] && bytes[index + 1] == separator[1] {
                parts.append(current)
                current = []
                index += 2
            } else {
                current.append(bytes[index])
                index += 1
            }
        }
        parts.append(current)
        return parts
    }

    static func everyLineFeedFollowsCR(_ bytes: [UInt8]) -> Bool {
        bytes.indices.allSatisfy { bytes[$0] != 0x0A || ($0 > 0 && bytes[$0 - 1] == 0x0D) }
    }

}
