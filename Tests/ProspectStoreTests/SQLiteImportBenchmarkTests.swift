import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import Testing

/// Bulk recording against the `sqlite3` shell's `.import` of the same rows into a table with the same unique
/// index. Opt-in (`PROSPECTS_BENCHMARK=1`), and meaningful in release builds only:
/// `PROSPECTS_BENCHMARK=1 swift test -c release --filter SQLiteImportBenchmark`.
@Suite("SQLite import benchmark", .enabled(if: ProcessInfo.processInfo.environment["PROSPECTS_BENCHMARK"] == "1"))
struct SQLiteImportBenchmarkTests {
    @Test func recordsHundredThousandRowsNearTheShellsImportSpeed() throws {
        let folder = try TemporaryDirectory()
        let rows = 100_000
        let batch = 10_000
        var sightings: [Sighting] = []
        var csv = "name,email,email_key\n"
        for index in 0..<rows {
            let email = "person\(index)@example.com"
            sightings.append(
                Sighting(
                    prospect: Prospect(name: "Person \(index)", email: email), source: "import:list.csv", seenAt: Date()
                ))
            csv += "Person \(index),\(email),\(email)\n"
        }
        let csvPath = folder.file("list.csv")
        try csv.write(toFile: csvPath, atomically: false, encoding: .utf8)

        let store = try SQLiteStore(path: folder.file("store.sqlite"))
        let started = Date()
        for start in stride(from: 0, to: rows, by: batch) {
            _ = try store.record(Array(sightings[start..<min(rows, start + batch)]))
        }
        let ours = Date().timeIntervalSince(started)
        #expect(try store.count() == rows)

        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [
            folder.file("shell.sqlite"), "PRAGMA journal_mode = WAL;",
            "CREATE TABLE t (name TEXT, email TEXT, email_key TEXT UNIQUE);", ".import --csv --skip 1 \(csvPath) t",
        ]
        shell.standardOutput = FileHandle.nullDevice
        let shellStarted = Date()
        try shell.run()
        shell.waitUntilExit()
        let reference = Date().timeIntervalSince(shellStarted)
        #expect(shell.terminationStatus == 0)

        let ratio = ours / reference
        print("SQLiteStore.record: \(rows) rows in \(ours) s; sqlite3 .import: \(reference) s; ratio \(ratio)")
        #if !DEBUG
            #expect(ratio < 1.5)
        #endif
    }
}
