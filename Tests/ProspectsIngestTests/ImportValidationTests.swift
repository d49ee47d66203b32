import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsTestSupport
import Testing

@testable import ProspectsIngest

/// An imported row and a scanned MECARD go through one builder: the same fields give the same prospect, and the
/// same bad field the same error.
@Suite struct ImportValidationTests {
    enum ListFormat: CaseIterable {
        case csv, jsonLines
    }

    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// The records `reader` reads from one row holding `fields` (name, email, phone, organisation).
    func records(_ fields: [String], as format: ListFormat) throws -> [ImportRecord] {
        let path: String
        let reader: any ImportRecordReader
        switch format {
        case .csv:
            path = folder.file("list-\(UUID().uuidString).csv")
            let row = fields.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"" }.joined(separator: ",")
            try Data("name,email,phone,organization\n\(row)\n".utf8).write(to: URL(fileURLWithPath: path))
            reader = try CSVRecordReader(path: path)
        case .jsonLines:
            path = folder.file("list-\(UUID().uuidString).jsonl")
            let object = zip(["name", "email", "phone", "organization"], fields).reduce(into: [String: String]()) {
                $0[$1.0] = $1.1
            }
            var line = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            line.append(0x0A)
            try line.write(to: URL(fileURLWithPath: path))
            reader = try JSONLinesRecordReader(path: path)
        }
        var records: [ImportRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    func mecard(_ fields: [String]) -> String {
        "MECARD:N:\(fields[0]);EMAIL:\(fields[1]);TEL:\(fields[2]);ORG:\(fields[3]);;"
    }

    @Test(arguments: ListFormat.allCases)
    func paddedFieldsGiveTheProspectAMECARDGives(format: ListFormat) throws {
        let fields = ["  Jane Doe  ", "  jane@example.com  ", "  +1 555 0100  ", "  Acme  "]
        let scanned = try PayloadParser().parse(mecard(fields)).get()
        #expect(
            scanned == Prospect(name: "Jane Doe", email: "jane@example.com", phone: "+1 555 0100", organization: "Acme")
        )
        let record = try #require(try records(fields, as: format).first)
        #expect(Importer.validate(record, parser: PayloadParser()) == .success(scanned))
    }

    @Test(arguments: ListFormat.allCases)
    func aBlankPhoneOrOrganisationIsLeftOutAsInAMECARD(format: ListFormat) throws {
        let fields = ["Jane Doe", "jane@example.com", "   ", " \u{00A0} "]
        let scanned = try PayloadParser().parse(mecard(fields)).get()
        #expect(scanned.phone == nil && scanned.organization == nil)
        let record = try #require(try records(fields, as: format).first)
        #expect(Importer.validate(record, parser: PayloadParser()) == .success(scanned))
    }

    /// Decomposed letters are composed (NFC) in every field, whichever path they came by.
    @Test func theOrganisationIsInNFCAsInAMECARD() throws {
        let fields = ["Jane Doe", "jane@example.com", "+1 555 0100", "Cafe\u{0301} Mu\u{0308}ller"]
        let scanned = try PayloadParser().parse(mecard(fields)).get()
        #expect(scanned.organization == "Caf\u{00E9} M\u{00FC}ller")
        let record = try #require(try records(fields, as: .csv).first)
        #expect(Importer.validate(record, parser: PayloadParser()) == .success(scanned))
    }

    static let badFields: [[String]] = [
        ["   ", "jane@example.com", "", ""],
        ["Jane Doe", "jane.example.com", "", ""],
        ["Jane Doe", "jane@example.com", "+1 555\u{200B}0100", ""],
        ["Jane Doe", "jane@example.com", "", "Acme \u{202E}evil"],
        ["Jane\u{0007} Doe", "jane@example.com", "", ""],
    ]

    @Test(arguments: ListFormat.allCases, badFields)
    func aBadFieldGivesTheErrorAMECARDGives(format: ListFormat, fields: [String]) throws {
        let scanned = PayloadParser().parse(mecard(fields))
        guard case .failure(let scanError) = scanned else {
            Issue.record("the MECARD was accepted: \(scanned)")
            return
        }
        let record = try #require(try records(fields, as: format).first)
        let imported = Importer.validate(record, parser: PayloadParser())
        #expect(imported == .failure(scanError))
        if case .failure(let importError) = imported { #expect(importError.message == scanError.message) }
    }

    /// A .vcf file's cards are read as the same cards scanned: their details go in, and a card without an address is
    /// rejected with the scanned card's message.
    @Test func aVCardFileIsImportedCardByCard() throws {
        let path = folder.file("cards.vcf")
        let cards = [
            "BEGIN:VCARD", "VERSION:3.0", "N:Appleseed;Johnny;Q.;Dr.;Jr.", "FN:Johnny Appleseed", "TITLE:Grower",
            "EMAIL:johnny@example.com", "NOTE:met at the fair", "END:VCARD", "BEGIN:VCARD", "FN:Nobody", "END:VCARD",
        ]
        try Data((cards.joined(separator: "\r\n") + "\r\n").utf8).write(to: URL(fileURLWithPath: path))
        let store = try SQLiteStore(path: folder.file("store.sqlite"))
        var rejections: [Importer.Rejection] = []
        let totals = try Importer(store: store).run(source: "cards.vcf", reader: try VCardFileReader(path: path)) {
            rejections.append($0)
        }
        #expect([totals.rows, totals.inserted, totals.rejected] as [Int] == [2, 1, 1])
        #expect(rejections.map(\.line) == [9])
        #expect(rejections.first?.message == PayloadParser().parse("BEGIN:VCARD\nFN:Nobody\nEND:VCARD").failureMessage)
        let johnny = try #require(try store.prospect(.email("johnny@example.com")))
        #expect(johnny.prospect.title == "Grower")
        #expect(johnny.prospect.nameParts?.suffix == "Jr.")
        #expect(try store.notes(of: johnny.id).map(\.text) == ["met at the fair"])
    }
}

extension Result where Failure == ScanError {
    fileprivate var failureMessage: String? {
        if case .failure(let error) = self { error.message } else { nil }
    }
}
