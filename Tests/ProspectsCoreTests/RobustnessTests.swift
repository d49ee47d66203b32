import ProspectsCore
import Testing

/// Random payloads built from the tokens the parsers react to: none may crash a parser, and whatever
/// comes out must be safe to print.
@Suite struct RobustnessTests {
    private static let tokens: [[UInt8]] = [
        "MECARD:", "BEGIN:VCARD", "END:VCARD", "MATMSG:", "mailto:", "N:", "FN:", "EMAIL:", "TEL:", "ORG:", "TO:",
        ";", ";;", ":", ",", "\\", "\\;", "\r\n", "\n", "\r", " ", "\t", "\r\n ", "=", "=C3", "=\r\n", "%", "%C3",
        "%40", "@", ".", "..", "-", "<", ">", "\"", "?", "&", "to=", "ENCODING=QUOTED-PRINTABLE", "CHARSET=UTF-8",
        "ENCODING=b", "item1.", "paul", "example.com", "Zoë", "\u{1B}", "\u{202E}", "\u{200B}", "\u{0}", "\u{FEFF}",
        "https://", "WIFI:",
    ].map { Array($0.utf8) }

    @Test func randomPayloadsNeverCrashAndAlwaysPrintSafely() {
        var generator = SplitMix64(state: 0x5EED)
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                if Int.random(in: 0..<10, using: &generator) == 0 {
                    bytes.append(UInt8.random(in: 0...255, using: &generator))  // and the odd stray byte
                } else {
                    bytes += Self.tokens.randomElement(using: &generator)!
                }
            }
            switch parser.parse(utf8: bytes) {
            case .success(let prospect):
                for field in [prospect.name, prospect.email, prospect.phone ?? "", prospect.organization ?? ""] {
                    #expect(SafeText.firstUnsafe(in: field) == nil, "\(bytes)")
                }
                #expect(!prospect.name.isEmpty)
                #expect((try? EmailAddress.validate(prospect.email).get()) == prospect.email)
            case .failure(let error):
                #expect(SafeText.firstUnsafe(in: error.message) == nil, "\(bytes)")
            }
        }
    }
}
