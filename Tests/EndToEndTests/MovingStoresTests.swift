import Foundation
import ProspectsTestSupport
import Testing

/// The built binary moves a worked list without loss: export → import → export gives the same file (ids aside), and
/// `copy` gives the same file, ids included.
@Suite struct MovingStoresTests {
    func run(_ arguments: [String]) throws -> ProspectsProcess.Result {
        let result = try ProspectsProcess.run(arguments, environment: ["TZ": "UTC"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    /// A store whose leads were worked: several phones, notes, a rating, tags, contacted, a reminder, a second scan.
    func workedStore(in folder: TemporaryDirectory) throws -> String {
        let store = folder.file("worked.sqlite")
        let csv = folder.file("list.csv")
        try Data(
            """
            name,email,phone,mobile phone,organization
            Ada King,ada@example.org,+44 1,+44 7700 1 ::: +44 7700 2,Engines
            Bob,bob@example.com,,,

            """.utf8
        ).write(to: URL(fileURLWithPath: csv))
        _ = try run(["import", "--store", store, "--event", "Expo", "--by", "sam", csv])
        _ = try run(["import", "--store", store, "--again", "--by", "lee", csv])
        _ = try run(["note", "--store", store, "--by", "kim", "ada@example.org", "call back"])
        _ = try run(["rate", "--store", store, "ada@example.org", "hot"])
        _ = try run(["tag", "--store", store, "ada@example.org", "+vip", "+booth"])
        _ = try run(["mark", "--store", store, "--contacted", "ada@example.org"])
        _ = try run(["remind", "--store", store, "--at", "2030-01-02 09:00", "ada@example.org"])
        return store
    }

    @Test func exportImportExportGivesTheSameFile() throws {
        let folder = try TemporaryDirectory()
        let store = try workedStore(in: folder)
        let first = folder.file("first.jsonl")
        let second = folder.file("second.jsonl")
        _ = try run(["export", "--store", store, "--format", "json", "-o", first])
        _ = try run(["import", "--store", folder.file("moved.sqlite"), first])
        _ = try run(["export", "--store", folder.file("moved.sqlite"), "--format", "json", "-o", second])
        func withoutIDs(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
                .map { String($0).replacing(/^\{"id":[0-9]+,/, with: "{") }
        }
        #expect(try withoutIDs(second) == withoutIDs(first))
        #expect(try String(contentsOfFile: first, encoding: .utf8).contains(#""text":"call back""#))
        #expect(
            try String(contentsOfFile: second, encoding: .utf8).contains(
                #""phone":"+44 1","organization":"Engines""#))
        #expect(
            try String(contentsOfFile: second, encoding: .utf8).contains(#""otherPhones":["+44 7700 1","+44 7700 2"]"#))
        let show = try run(["show", "--store", folder.file("moved.sqlite"), "ada@example.org"])
        #expect(show.output.contains("other phones"), "\(show.output)")
        #expect(show.output.contains("+44 7700 1, +44 7700 2"), "\(show.output)")
    }

    @Test func copyGivesTheSameStoreAndRefusesOneWithProspects() throws {
        let folder = try TemporaryDirectory()
        let store = try workedStore(in: folder)
        let backup = folder.file("backup.sqlite")
        let copied = try run(["copy", "--from", store, "--to", backup])
        #expect(copied.output.hasPrefix("copied 2 prospects from \(store) to \(backup), verified (prospects 2, "))
        let json = try ProspectsProcess.run(["export", "--store", store, "--format", "json"])
        let copyJSON = try ProspectsProcess.run(["export", "--store", backup, "--format", "json"])
        #expect(json.output == copyJSON.output && !json.output.isEmpty)
        let again = try ProspectsProcess.run(["copy", "--from", store, "--to", backup, "--json"])
        #expect(again.status == 65)
        #expect(again.stderr.contains("the target is not empty (2 rows in prospects)"), "\(again.stderr)")
        let usage = try ProspectsProcess.run(["copy", "--from", store])
        #expect(usage.status == 64)
    }
}
