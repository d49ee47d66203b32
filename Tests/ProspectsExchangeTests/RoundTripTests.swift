import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import Testing

/// What export writes, import reads back: for CSV (through the formula guard) and JSON Lines.
@Suite struct RoundTripTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func export(_ format: ExportFormat, _ prospects: [StoredProspect]) throws -> String {
        let exporter = ProspectExporter(format: format)
        return try folder.write(
            "export.\(format.fileExtension)", exporter.header() + prospects.map(exporter.record).joined())
    }

    static let prospects =
        Fixtures.awkward + [
            Fixtures.stored(8, "+Plus -Minus", "@at@example.com", phone: "\tTab", organization: "\rCR"),
            Fixtures.stored(9, "Trailing, comma,", "t@example.com", phone: "", organization: nil, contacted: true),
            Fixtures.stored(10, "'@home Crew", "q@example.com", phone: "'+1", organization: "'=1"),
        ]

    /// The formats whose records carry the fields themselves (a vCard file's carry the card).
    @Test(arguments: [ImportFormat.csv, .json])
    func exportThenImportGivesTheSameProspects(_ format: ImportFormat) throws {
        let path = try export(format == .csv ? .csv : .json, Self.prospects)
        let records = try readAll(format.reader(path: path)).map { try $0.get() }
        #expect(records.count == Self.prospects.count)
        for (record, stored) in zip(records, Self.prospects) {
            #expect(record.name == stored.prospect.name)
            #expect(record.email == stored.prospect.email)
            #expect(record.phone == stored.prospect.phone.flatMap { $0.isEmpty ? nil : $0 })
            #expect(record.organization == stored.prospect.organization)
            #expect(record.contacted == stored.isContacted)
            #expect(record.createdAt.map { abs($0.timeIntervalSince(stored.createdAt)) < 0.001 } == true)
            #expect(
                record.remindAt.map { abs($0.timeIntervalSince(stored.remindAt!)) < 0.001 } ?? (stored.remindAt == nil))
        }
    }
}
