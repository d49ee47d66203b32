import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectsCLI

/// The store commands called as functions on a real SQLite file: what they print and the status they end with.
@Suite struct StoreCommandOutputTests {
    let fixture: CommandStoreFixture
    var folder: TemporaryDirectory { fixture.folder }
    var store: String { fixture.store }

    init() throws {
        fixture = try CommandStoreFixture([
            Prospect(name: "Grace Hopper", email: "grace@example.mil"),
            Prospect(name: "Ada Lovelace", email: "ada@example.org", organization: "Analytical"),
        ])
    }

    func run(_ argv: [String]) -> CommandRun { fixture.run(argv) }

    @Test func listPrintsATableAndACount() {
        let run = run(["list"])
        #expect(run.status == .success && run.err.isEmpty)
        #expect(
            run.lines == [
                "ID  NAME          EMAIL              CONTACTED  ADDED                 SCANS",
                "2   Ada Lovelace  ada@example.org    no         2026-12-01 14:30 UTC  1",
                "1   Grace Hopper  grace@example.mil  no         2026-12-01 14:30 UTC  1",
                "2 prospects (everyone)",
            ])
    }

    @Test func listJSONIsOneObjectPerLine() throws {
        let run = run(["list", "--json", "--reverse"])
        #expect(run.status == .success)
        let emails = try run.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["email"] as? String)
        }
        #expect(emails == ["grace@example.mil", "ada@example.org"])
    }

    @Test func showPrintsEveryFieldAndTheHistory() {
        let run = run(["show", "ADA@example.org"])
        #expect(run.status == .success)
        #expect(run.lines.contains("organization Analytical"))
        #expect(run.lines.contains("first source cards.png"))
        #expect(run.lines.suffix(2) == ["history:", "  2026-12-01 14:30 UTC  cards.png"])
    }

    @Test func anUnknownProspectIsBadDataAndTheOthersStillChange() {
        let run = run(["mark", "--contacted", "nobody@example.com", "#1"])
        #expect(run.status == .dataError)
        #expect(run.out == "#1: marked contacted\n")
        #expect(run.err == "prospects: nobody@example.com: no such prospect\n")
        #expect(self.run(["list", "--filter", "contacted"]).lines.last == "1 prospect (contacted)")
    }

    @Test func deleteSaysEachOne() {
        let run = run(["delete", "1", "grace@example.mil", "ghost@example.com"])
        #expect(run.status == .dataError)
        #expect(run.out == "1: deleted\ngrace@example.mil: deleted\n")
        #expect(run.err == "prospects: ghost@example.com: no such prospect\n")
    }

    @Test func remindAndDue() {
        #expect(
            run(["remind", "--at", "2000-01-01", "ada@example.org"]).out
                == "ada@example.org: reminder at 2000-01-01 09:00 UTC\n")
        let due = run(["due"])
        #expect(due.lines.first?.hasPrefix("ID  NAME          EMAIL            DUE") == true)
        #expect(due.lines.last == "1 due")
    }

    @Test func exportToAFileSaysHowManyAndToStdoutWritesTheList() throws {
        let csv = run(["export", "--format", "csv"])
        #expect(csv.status == .success && csv.err.isEmpty)
        #expect(csv.out.hasPrefix("id,name,email,"))
        let path = folder.file("out.csv")
        let toFile = run(["export", "--format", "csv", "-o", path])
        #expect(toFile.status == .success && toFile.out.isEmpty)
        #expect(toFile.err == "prospects: exported 2 prospects to \(path)\n")
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == csv.out)
    }

    @Test func anOutputThatCannotBeMadeIsCannotCreate() {
        let run = run(["export", "--format", "json", "-o", folder.path])
        #expect(run.status == .cannotCreate)
        #expect(run.err == "prospects: cannot create \(folder.path): it is a folder\n")
        let database = self.run(["export", "--format", "json", "-o", store])
        #expect(database.status == .cannotCreate)
        #expect(database.err.contains("belongs to an SQLite database"))
    }

    @Test func aMissingStoreIsUnavailableAndNotMade() {
        let missing = folder.file("none.sqlite")
        let run = CommandRun(["list", "--store", missing])
        #expect(run.status == .unavailable)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func importSaysWhatItDidAndTheSecondTimeThatItWasIn() throws {
        let list = try folder.contactList(3)
        let first = run(["import", "--format", "csv", list])
        #expect(first.status == .success)
        #expect(first.out == "3 rows: 3 inserted, 0 duplicates, 0 rejected\n")
        let second = run(["import", "--format", "csv", "--json", list])
        #expect(second.out.hasPrefix(#"{"rows":3,"inserted":0,"duplicates":0,"rejected":0,"alreadyIn":3,"#))
        let missing = run(["import", "--format", "csv", folder.file("missing.csv")])
        #expect(missing.status == .noInput)
        #expect(missing.err.hasPrefix("prospects: \(folder.file("missing.csv")): cannot read the list: "))
    }
}
