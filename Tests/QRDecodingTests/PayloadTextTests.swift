import QRDecoding
import Testing

@Suite("PayloadText: UTF-8, then Shift_JIS, then Latin-1")
struct PayloadTextTests {
    static let yamadaShiftJIS: [UInt8] =
        [0x8E, 0x52, 0x93, 0x63, 0x91, 0xBE, 0x98, 0x59] + Array("\nyamada@example.jp".utf8)

    @Test("valid UTF-8 is taken as is", arguments: contactPayloads)
    func utf8(payload: String) {
        let text = PayloadText(Array(payload.utf8))
        #expect(text.text == payload)
        #expect(text.encoding == .utf8)
        #expect(text.bytes == Array(payload.utf8))
    }

    @Test("a leading UTF-8 BOM is stripped from bytes and text; a later one is kept")
    func byteOrderMark() {
        let text = PayloadText([0xEF, 0xBB, 0xBF] + Array("Zoë\u{FEFF}".utf8))
        #expect(text.bytes == Array("Zoë\u{FEFF}".utf8))
        #expect(text.text == "Zoë\u{FEFF}")
        #expect(text.encoding == .utf8)
        #expect(PayloadText([0xEF, 0xBB, 0xBF]).text.isEmpty)
    }

    @Test("bytes that are not UTF-8 but valid Shift_JIS")
    func shiftJIS() {
        let text = PayloadText(Self.yamadaShiftJIS)
        #expect(text.text == "山田太郎\nyamada@example.jp")
        #expect(text.encoding == .shiftJIS)
        #expect(text.bytes == Self.yamadaShiftJIS)
        #expect(PayloadText([0xB1, 0xB2, 0xB3]).text == "ｱｲｳ")  // half-width katakana: one byte each
    }

    @Test("anything else is Latin-1, which cannot fail")
    func latin1() {
        let joseLatin1: [UInt8] = [0x4A, 0x6F, 0x73, 0xE9, 0x20, 0x4E, 0xFA, 0xF1, 0x65, 0x7A]
        let text = PayloadText(joseLatin1)
        #expect(text.text == "José Núñez")
        #expect(text.encoding == .latin1)
        #expect(PayloadText([0x81]).encoding == .latin1)  // a lone Shift_JIS lead byte: truncated, so not SJIS
        #expect(PayloadText(Array(0...255)).text.unicodeScalars.count == 256)
    }

    @Test("NUL bytes and the empty payload survive")
    func nulAndEmpty() {
        #expect(PayloadText([0x61, 0x00, 0x62]).text == "a\u{0}b")
        #expect(PayloadText([]).text.isEmpty)
        #expect(PayloadText([]).encoding == .utf8)
    }
}

extension PayloadTextTests {
    @Test("Shift_JIS 0x5C and 0x7E read as ASCII \\ and ~, as ZXing and phones read them; full-width ¥ stays")
    func shiftJISRoman() {
        // MEBKM:TITLE:モバイル;URL:http\://x/~y;; with a full-width yen sign (0x818F), as in the corpus.
        let bytes: [UInt8] =
            Array("MEBKM:TITLE:".utf8) + [0x83, 0x82, 0x83, 0x6F, 0x83, 0x43, 0x83, 0x8B, 0x81, 0x8F]
            + Array(";URL:http\\://x/~y;;".utf8)
        let text = PayloadText(bytes)
        #expect(text.encoding == .shiftJIS)
        #expect(text.text == "MEBKM:TITLE:モバイル￥;URL:http\\://x/~y;;")
    }
}
