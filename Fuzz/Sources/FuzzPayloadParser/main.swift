import FuzzSupport
import ProspectsCore

/// Fuzzes `PayloadParser` in every format, on bytes and on text.
///
/// The first input byte picks a format prefix put before the rest, so mutations spend their time inside each
/// format's grammar instead of rediscovering `MECARD:`; a byte past the table means "no prefix".
/// Checked for every input: accepted prospects hold no unsafe scalar, re-validate and have an idempotent key;
/// refusals carry a kind and a safe message; an accepted prospect written back as a card (`CardPayload`) never
/// parses to a different name or address, and as a MECARD or vCard always parses back exactly; `SafeText.escaped` of the text is safe.
let prefixes: [[UInt8]] = [
    Array("MECARD:".utf8), Array("BEGIN:VCARD\r\nVERSION:3.0\r\n".utf8), Array("MATMSG:".utf8),
    Array("mailto:".utf8), Array("BEGIN:VCARD\nVERSION:4.0\nFN:".utf8),
]

let parser = PayloadParser()

func check(_ result: Result<Prospect, ScanError>) {
    switch result {
    case .success(let prospect):
        checkProspect(prospect)
        for format in CardPayload.Format.allCases {
            let card = CardPayload.make(prospect, format: format)
            let shown = "\(SafeText.escaped(prospect.name)) <\(SafeText.escaped(prospect.email))>"
            switch parser.parse(card) {
            case .success(let again):
                // Never someone else: a card reads back as this contact or not at all.
                require(
                    again.name == prospect.name && again.email == prospect.email,
                    "\(format) card of \(shown) parses to \(SafeText.escaped(again.name)) <\(SafeText.escaped(again.email))>"
                )
            case .failure(let error):
                // Two plain lines cannot say "this is a name" when it starts like another kind of code (`tel:…`,
                // `MECARD:…`); `encode` refuses such names in that format. MECARD and vCard escape: always exact,
                // unless the card, with its keywords and escapes, grew past what a code may hold.
                let tooLong = card.utf8.count > PayloadParser.maxPayloadBytes
                require(format == .lines || tooLong, "\(format) card of \(shown) is refused: \(error.message)")
            }
        }
    case .failure(let error):
        checkError(error)
    }
}

runFuzzer { data, size in
    var bytes = inputBytes(data, size)
    if let selector = bytes.first {
        bytes.removeFirst()
        if Int(selector) < prefixes.count { bytes = prefixes[Int(selector)] + bytes }
    }
    check(parser.parse(utf8: bytes))
    if let text = String(validating: bytes, as: UTF8.self) {
        check(parser.parse(text))
        checkEscaping(text)
    }
    // Invalid UTF-8 repaired with U+FFFD: the text a lossy decoder upstream would hand over.
    let repaired = String(decoding: bytes, as: UTF8.self)
    check(parser.parse(repaired))
    return 0
}
