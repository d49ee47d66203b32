import Foundation
import ProspectsTestSupport
import Testing

/// The built `prospects` binary on `SampleImages/`: every outcome the manifest promises, and the store after ingest.
@Suite struct SampleImagesTests {
    let samples = ProspectsProcess.sampleImages()

    struct ManifestEntry: Decodable {
        struct Code: Decodable, Equatable {
            var name: String?
            var email: String?
            var phone: String?
            var organization: String?
            var error: String?
        }
        var file: String
        var codes: [Code]?
        var error: String?
    }

    func manifest() throws -> [ManifestEntry] {
        let text = try String(contentsOf: samples.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(ManifestEntry.self, from: Data($0.utf8)) }
    }

    @Test func decodeJSONGivesExactlyTheManifestOutcomes() throws {
        let result = try ProspectsProcess.run(["decode", "--json", samples.path])
        #expect(result.status == 65, "some samples are bad on purpose, so decode reports rejected data")
        var actual: [String: ManifestEntry] = [:]
        for line in result.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let file = URL(fileURLWithPath: try #require(object["file"] as? String)).lastPathComponent
            var entry = actual[file] ?? ManifestEntry(file: file, codes: nil, error: nil)
            let error = (object["error"] as? [String: Any]).flatMap { $0["kind"] as? String }
            if let error = object["error"] as? [String: Any] {
                #expect((error["message"] as? String)?.isEmpty == false, "every error has a message: \(line)")
            }
            if object["text"] == nil {
                entry.error = error
            } else {
                let prospect = object["prospect"] as? [String: Any]
                let code = ManifestEntry.Code(
                    name: prospect?["name"] as? String, email: prospect?["email"] as? String,
                    phone: prospect?["phone"] as? String, organization: prospect?["organization"] as? String,
                    error: error)
                entry.codes = (entry.codes ?? []) + [code]
            }
            actual[file] = entry
        }
        let expected = try manifest()
        #expect(actual.count == expected.count)
        for entry in expected {
            let got = try #require(actual[entry.file], "no output for \(entry.file)")
            #expect(got.error == entry.error, "\(entry.file)")
            #expect(got.codes == entry.codes, "\(entry.file)")
        }
    }

    @Test func decodeRawPrintsTheCodesTextByteExact() throws {
        let files = [
            "02-zoe-muller.png", "03-li-xiaolong.png", "04-bjorn-odegard.png", "17-crlf.png", "12-two-codes.png",
        ]
        let result = try ProspectsProcess.run(
            ["decode", "--raw"] + files.map { samples.appendingPathComponent($0).path })
        #expect(result.status == 0)
        let expected =
            "Zoë Müller\nzoe.muller@example.com\n" + "李小龙\nli.xiaolong@example.cn\n"
            + "Björn Ødegård\nbjorn@example.no\n" + "Linus Torvalds\r\nlinus@example.org\r\n\n"
            + "Ada Lovelace\nada@example.org\n" + "Grace Hopper\ngrace@example.mil\n"
        #expect(result.stdout == Data(expected.utf8))
        #expect(result.stderr.isEmpty)
    }

    @Test func decodeHumanOutputNamesEachRejectedFileOnStderr() throws {
        let result = try ProspectsProcess.run(["decode", samples.path])
        #expect(result.status == 65)
        #expect(result.output.contains("01-paul-hudson.png: Paul Hudson <paul@hackingwithswift.com>"))
        #expect(result.stderr.contains("10-no-code.png: no QR code found in the image"))
        #expect(result.stderr.contains("23-empty.png: an empty file; Prospects reads PNG, JPEG, HEIC, AVIF and WebP"))
        #expect(result.stderr.contains("07-three-lines.png: expected two lines"))
        #expect(result.stderr.contains("06-one-line.png: not a contact code"))
        // The override in 20's name is reported, never echoed raw.
        #expect(!result.stderr.contains("\u{202E}") && !result.output.contains("\u{202E}"))
    }

    @Test func ingestingTwiceCountsDuplicatesAndInsertsNothingNew() throws {
        let folder = try TemporaryDirectory()
        let store = folder.url.appendingPathComponent("prospects.sqlite").path
        let first = try ProspectsProcess.run(["ingest", "--json", "--store", store, samples.path])
        #expect(first.status == 65)
        let summary1 = try #require(first.lines.last)
        #expect(summary1.hasPrefix(#"{"files":24,"inserted":13,"duplicates":3,"rejected":9"#), "\(summary1)")
        #expect(
            first.stderr.contains(
                "22-text-renamed.png: rejected: a text file; Prospects reads PNG, JPEG, HEIC, AVIF and WebP"))

        let second = try ProspectsProcess.run(["ingest", "--json", "--store", store, samples.path])
        let summary2 = try #require(second.lines.last)
        #expect(summary2.hasPrefix(#"{"files":24,"inserted":0,"duplicates":16,"rejected":9"#), "\(summary2)")

        let list = try ProspectsProcess.run(["list", "--json", "--store", store])
        #expect(list.status == 0)
        #expect(list.lines.count == 13)
        let paul = try #require(list.lines.first { $0.contains("paul@hackingwithswift.com") })
        #expect(paul.contains(#""contacted":false"#) && paul.contains(#""createdAt":"20"#))
        #expect(paul.contains(#""scanCount":2"#), "01 and 05 are one person seen twice; the second ingest adds nothing")
    }

    @Test func theDefaultStoreIsInTheCurrentFolderAndTheEnvironmentOverridesIt() throws {
        let folder = try TemporaryDirectory()
        let file = samples.appendingPathComponent("01-paul-hudson.png").path
        let plain = try ProspectsProcess.run(["ingest", file], currentDirectory: folder.url)
        #expect(plain.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("prospects.sqlite").path))
        let other = folder.url.appendingPathComponent("other.sqlite").path
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("prospects.sqlite"))
        let viaEnv = try ProspectsProcess.run(
            ["ingest", file], environment: ["PROSPECTS_STORE": other], currentDirectory: folder.url)
        #expect(viaEnv.status == 0)
        #expect(FileManager.default.fileExists(atPath: other))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("prospects.sqlite").path))
    }
}
