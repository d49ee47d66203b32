import Foundation
import ProspectStore
import ProspectsCore

/// A folder of its own for one test, removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("exchange-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `bytes` to `name` in the folder and returns the path.
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

enum Fixtures {
    static let created = Date(timeIntervalSince1970: 1_717_000_000.25)
    static let seen = Date(timeIntervalSince1970: 1_717_086_400.5)

    static func stored(
        _ id: Int64, _ name: String, _ email: String, phone: String? = nil, organization: String? = nil,
        contacted: Bool = false, remindAt: Date? = nil
    ) -> StoredProspect {
        let prospect = Prospect(name: name, email: email, phone: phone, organization: organization)
        return StoredProspect(
            id: id, prospect: prospect, key: prospect.key, isContacted: contacted, createdAt: created,
            lastSeenAt: seen, scanCount: Int(id % 3) + 1, firstSource: "scans/\(id).png", remindAt: remindAt)
    }

    /// A 120-character name whose 75-octet fold point (after `FN:`) falls inside a two-byte `ü`, and later
    /// inside three-byte CJK characters.
    static let longName: String = {
        let name =
            String(repeating: "a", count: 71) + "ü" + String(repeating: "李", count: 24) + " "
            + String(repeating: "b", count: 23)
        precondition(name.count == 120)
        return name
    }()

    /// Prospects that exercise every escaping rule of the three formats.
    static let awkward: [StoredProspect] = [
        stored(1, "Paul Hudson", "paul@hackingwithswift.com", phone: "+1 555 0100", organization: "Hacking with Swift"),
        stored(2, "Zoë Müller", "zoe@example.de", contacted: true, remindAt: seen),
        stored(3, "李小龙", "bruce@example.cn", organization: "嘉禾; Golden Harvest"),
        stored(4, longName, "long@example.com"),
        stored(5, #"Back\slash, Comma; Semi"#, "odd@example.com", organization: #"A\B, C; D"#),
        stored(6, "=SUM(A1)", "formula@example.com", phone: "-1", organization: "@cmd"),
        stored(7, "Quote \"Q\" Person", "quote@example.com", organization: "Line one\nline two"),
    ]
}
