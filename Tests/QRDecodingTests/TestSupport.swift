import Foundation
import ProspectsTestSupport
import QRDecoding

/// The payloads the tests decode byte-exactly: ASCII, Latin accents, Nordic letters, CJK.
let contactPayloads = [
    "Paul Hudson\npaul@hackingwithswift.com",
    "Zoë Müller\nzoe@example.com",
    "Björn Ødegård\nbjorn@example.no",
    "Jürgen Müller\njuergen@example.de",
    "李小龙\nbruce@example.cn",
]

/// The bytes of a committed fixture under `Fixtures/` (made by `Fixtures/make-fixtures.sh`).
func fixture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    return [UInt8](try Data(contentsOf: url))
}

/// Decodes `png` with a fresh decoder and returns the texts found.
func decodedTexts(_ png: [UInt8]) throws -> [String] {
    try QRDecoder().decode(png).map(\.text)
}
