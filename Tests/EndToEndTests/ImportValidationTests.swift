import Foundation
import ProspectsTestSupport
import Testing

/// `import` and `ingest` validate through one builder: the built binary stores the same prospect from a CSV row as
/// from a scanned MECARD with the same (padded) fields, and says the same of the same bad field.
@Suite struct ImportValidationTests {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
    }

    func run(_ arguments: [String], store: String) throws -> ProspectsProcess.Result {
        try ProspectsProcess.run(arguments, environment: ["PROSPECTS_STORE": store])
    }

    /// The exported prospects of `store` without what depends on when and how they came in (the history too).
    func exported(_ store: String) throws -> [[String: String]] {
        let result = try run(["export", "--format", "json"], store: store)
        #expect(result.status == 0, "\(result.stderr)")
        return try result.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object.filter { !["createdAt", "lastSeenAt", "source", "history"].contains($0.key) }.mapValues {
                "\($0)"
            }
        }
    }

    /// Imports a CSV file of one row with `fields` into a new store, and scans a MECARD of them into another.
    func importAndScan(_ fields: [String], name: String) throws -> (
        imported: ProspectsProcess.Result,
        scanned: ProspectsProcess.Result, csvStore: String, scanStore: String
    ) {
        let csv = folder.file("\(name).csv")
        let row = fields.map { "\"\($0)\"" }.joined(separator: ",")
        try Data("name,email,phone,organization\n\(row)\n".utf8).write(to: URL(fileURLWithPath: csv))
        let png = folder.file("\(name).png")
        let mecard = "MECARD:N:\(fields[0]);EMAIL:\(fields[1]);TEL:\(fields[2]);ORG:\(fields[3]);;"
        try Data(PNGFixtures.contactCode(mecard)).write(to: URL(fileURLWithPath: png))
        let csvStore = folder.file("\(name)-import.sqlite")
        let scanStore = folder.file("\(name)-scan.sqlite")
        let imported = try run(["import", "--format", "csv", csv], store: csvStore)
        let scanned = try run(["ingest", png], store: scanStore)
        return (imported, scanned, csvStore, scanStore)
    }

    @Test func aCSVRowAndAMECARDWithTheSamePaddedFieldsExportTheSameProspect() throws {
        let run = try importAndScan(
            ["  Jane Doe  ", "  jane@example.com  ", "  +1 555 0100  ", "  Acme  "], name: "padded")
        #expect(run.imported.status == 0, "\(run.imported.stderr)")
        #expect(run.scanned.status == 0, "\(run.scanned.stderr)")
        let fromList = try exported(run.csvStore)
        #expect(fromList.count == 1)
        #expect(fromList.first?["phone"] == "+1 555 0100")
        #expect(fromList.first?["organization"] == "Acme")
        #expect(fromList == (try exported(run.scanStore)))
    }

    @Test func theSameBadFieldGivesTheSameMessageFromBothPaths() throws {
        let run = try importAndScan(["Jane Doe", "jane@example.com", "", "Acme \u{202E}evil"], name: "bad")
        #expect(run.imported.status == 65)
        #expect(run.scanned.status == 65)
        let message = "the organization contains an unsafe character (U+202E RIGHT-TO-LEFT OVERRIDE)"
        #expect(run.imported.stderr.contains("bad.csv:2: \(message)"), "\(run.imported.stderr)")
        #expect(run.scanned.stderr.contains(message), "\(run.scanned.stderr)")
    }
}
