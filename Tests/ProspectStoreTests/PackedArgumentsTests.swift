import Foundation
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectStore

/// The values an import packs ahead of its writes (`PreparedSightings`) are the ones `ProspectSQL.upsertValues`
/// gives, and SQLite reads them in place as it would read them bound one by one.
@Suite struct PackedArgumentsTests {
    enum Value: Int, SQLParameter {
        case id, text, number
    }

    /// Sightings that set every kind of value: the plain two-line row, every optional column, empty parts,
    /// non-ASCII text, and texts far longer than the first buffer.
    static let sightings: [Sighting] = [
        Sighting(prospect: .init(name: "Ann Lee", email: "Ann@Example.com"), source: "list.csv:2", seenAt: date(1)),
        Sighting(
            prospect: .init(
                name: "Dr. Jürgen Müller Jr.", email: "jm@example.de", phone: "+49 30 1234", organization: "Bäcker AG",
                title: "Head of Sales", nameParts: NameParts(family: "Müller", given: "Jürgen", prefix: "Dr."),
                otherEmails: ["j@example.org"], note: "Met at the booth"),
            source: "cards.vcf:7", seenAt: date(2_000), contactedIfNew: true, createdAtIfNew: date(1_500),
            remindAtIfNew: date(9_000), event: "KubeCon EU 2026", collectedBy: "sam"),
        Sighting(
            prospect: .init(name: String(repeating: "Zoë ", count: 400), email: "z@example.com", organization: ""),
            source: String(repeating: "s", count: 5_000), seenAt: date(3), event: "", collectedBy: ""),
    ]

    static func date(_ milliseconds: Int64) -> Date { Date(storeMilliseconds: milliseconds) }

    /// What SQLite is handed for `value`: a boolean as 0 or 1.
    static func asSQLite(_ value: SQLValue) -> SQLValue {
        if case .bool(let flag) = value { return .integer(flag ? 1 : 0) }
        return value
    }

    @Test func thePackedRowsAreTheUpsertValues() throws {
        let prepared = PreparedSightings(Self.sightings)
        let packed = try prepared.upserts.get()
        #expect(packed.rowCount == Self.sightings.count)
        for (row, sighting) in Self.sightings.enumerated() {
            let values = try ProspectSQL.upsertValues(sighting)
            for parameter in ProspectSQL.SightingValue.allCases {
                #expect(packed.value(row, parameter) == Self.asSQLite(values[parameter]), "row \(row): \(parameter)")
            }
            #expect(prepared.plain[row] == ProspectSQL.isPlain(sighting))
        }
        #expect(prepared.hasDetails == [false, true, false])
    }

    /// Other phones alone give a new prospect rows of its own to record, and a NUL in one fails the values too.
    @Test func otherPhonesRideAlongAsDetails() throws {
        let phones = Sighting(
            prospect: .init(name: "Ola", email: "ola@example.no", phone: "+47 22 00 00 00", otherPhones: ["+47 400"]),
            source: "ola.vcf", seenAt: Self.date(1))
        let prepared = PreparedSightings([phones])
        #expect(prepared.hasDetails == [true] && prepared.plain == [false])
        _ = try prepared.upserts.get()
        let nul = Sighting(
            prospect: .init(name: "Ola", email: "ola@example.no", phone: "+47 22", otherPhones: ["+47\u{0}400"]),
            source: "ola.vcf", seenAt: Self.date(1))
        #expect(throws: StoreError.self) { try PreparedSightings([nul]).upserts.get() }
    }

    @Test func aTextTheStoreCannotHoldFailsThePreparedValues() {
        let nul = Sighting(prospect: .init(name: "A\u{0}B", email: "a@example.com"), source: "a", seenAt: Self.date(1))
        let prepared = PreparedSightings(Self.sightings + [nul])
        #expect(throws: StoreError.self) { try prepared.upserts.get() }
        #expect(prepared.sightings.count == 4)
    }

    @Test func sqliteReadsThePackedValuesInPlace() throws {
        let folder = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: folder.file("db.sqlite"))
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT, number INTEGER)")
        // A buffer of one byte: every text moves it, and the rows set before must still read back.
        var packed = PackedArguments<Value>(rows: 1, textBytes: 1)
        let texts = ["", "a\u{0}b", "Grüße", String(repeating: "x", count: 10_000), "last"]
        for (index, text) in texts.enumerated() {
            packed.appendRow()
            packed.set(.text, text: text)
            packed.set(.number, integer: index == 1 ? nil : Int64(index) - 2)
        }
        let insert = try database.statement("INSERT INTO t VALUES (:id, :text, :number)", Value.self)
        for row in texts.indices { try insert.execute(packed, row: row, setting: .id, to: 40 + Int64(row)) }
        var read: [[String?]] = []
        try database.each(
            "SELECT CAST(id AS TEXT), text, typeof(text), CAST(length(CAST(text AS BLOB)) AS TEXT), CAST(number AS TEXT) "
                + "FROM t ORDER BY id"
        ) { row throws(StoreError) in
            read.append([
                try row.optionalText(0), try row.optionalText(1), try row.optionalText(2), try row.optionalText(3),
                try row.optionalText(4),
            ])
            return true
        }
        // Text keeps its NUL and its length, an empty text is text, NULL is NULL; the id is the one set.
        #expect(
            read
                == texts.enumerated().map { row, text in
                    [
                        String(40 + row), text, "text", String(text.utf8.count),
                        row == 1 ? nil : String(row - 2),
                    ]
                })
        let idOfText = try database.statement("SELECT id FROM t WHERE text = :text", Value.self)
        #expect(try idOfText.firstInteger(packed, row: 2) == 42)
        var missing = PackedArguments<Value>()
        missing.appendRow()
        missing.set(.text, text: "nobody")
        #expect(try idOfText.firstInteger(missing, row: 0) == nil)
    }
}
