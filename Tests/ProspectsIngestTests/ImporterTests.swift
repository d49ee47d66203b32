import CSQLite
import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsTestSupport
import SystemCalls
import Testing

@testable import ProspectsIngest

/// The import path on real CSV files and a real SQLite file, with batches small enough that every run crosses
/// several of them, so the hand-off between the reading and the writing thread is exercised.
@Suite struct ImporterTests {
    let folder: TemporaryDirectory
    let storePath: String
    let store: SQLiteStore

    init() throws {
        folder = try TemporaryDirectory()
        storePath = folder.file("prospects.sqlite")
        store = try SQLiteStore(path: storePath)
    }

    /// Writes `lines` as a CSV file and imports it; the rejections come back in the order `reject` heard them.
    func importCSV(_ lines: [String], batchSize: Int) throws -> (Importer.Totals, [Int]) {
        let path = folder.file("list-\(UUID().uuidString).csv")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        var rejectedLines: [Int] = []
        let totals = try Importer(store: store, batchSize: batchSize).run(
            source: "list.csv", reader: try CSVRecordReader(path: path)
        ) { rejectedLines.append($0.line) }
        return (totals, rejectedLines)
    }

    /// Runs `sql` on a connection of its own, as another process would: a real failure for the import to meet.
    func executeElsewhere(_ sql: String) {
        var other: OpaquePointer?
        #expect(sqlite3_open(storePath, &other) == SQLITE_OK)
        #expect(sqlite3_exec(other, sql, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(other)
    }

    /// Makes the insert of the prospect with email key `key` fail, with a trigger added as another process would.
    func failInserting(_ key: String) {
        executeElsewhere(
            "CREATE TRIGGER fail BEFORE INSERT ON prospects WHEN NEW.email_key = '\(key)' "
                + "BEGIN SELECT RAISE(ABORT, 'no room for \(key)'); END")
    }

    @Test(arguments: [1, 2, 3, 1_000])
    func everyRowAcrossBatchesIsCountedOnceAndRejectionsComeInFileOrder(batchSize: Int) throws {
        var lines = ["name,email,contacted"]
        for index in 0..<20 {
            switch index % 5 {
            case 1: lines.append("Nobody \(index),not-an-address,")
            case 3: lines.append("Repeat \(index),person0@example.com,")  // a duplicate of row 0
            default: lines.append("Person \(index),person\(index)@example.com,\(index == 4 ? "yes" : "")")
            }
        }
        let (totals, rejected) = try importCSV(lines, batchSize: batchSize)
        #expect([totals.rows, totals.inserted, totals.duplicates, totals.rejected] as [Int] == [20, 12, 4, 4])
        #expect(rejected == [3, 8, 13, 18], "header is line 1, so row index 1 is line 3")
        #expect(try store.count() == 12)
        let first = try #require(try store.prospect(.email("person0@example.com")))
        #expect(first.scanCount == 5)
        #expect(
            try store.history(of: first.id).map(\.source) == [
                "list.csv:2", "list.csv:5", "list.csv:10",
                "list.csv:15", "list.csv:20",
            ])
        #expect(try store.prospect(.email("person4@example.com"))?.isContacted == true)
        #expect(try store.list(filter: .contacted, sort: .name, reverse: false).count == 1)
    }

    @Test(arguments: [1, 2, 1_000])
    func aMalformedRecordIsRejectedAloneAndTheImportGoesOn(batchSize: Int) throws {
        // A record with too many fields, one that is not UTF-8, a bad flag, and a quoted address holding a line
        // break, among good rows: each costs its own row only, and is reported at its line.
        let lines = [
            "name,email,contacted", "P1,p1@example.com,", "X,x@example.com,yes,extra", "P2,p2@example.com,",
            "Caf\u{FFFD},cafe@example.com,", "P3,p3@example.com,maybe", "Two,\"two@\nexample.com\",",
            "P4,p4@example.com,yes",
        ]
        var bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        // Make line 5's name Latin-1 (0xE9), which is not UTF-8.
        let replacement = Array("\u{FFFD}".utf8)
        let at = try #require(bytes.indices.first { Array(bytes[$0..<min($0 + 3, bytes.count)]) == replacement })
        bytes.replaceSubrange(at..<at + 3, with: [0xE9])
        let path = folder.file("list.csv")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var rejections: [Importer.Rejection] = []
        var ignored: [String] = []
        let totals = try Importer(store: store, batchSize: batchSize).run(
            source: "list.csv", reader: try CSVRecordReader(path: path)
        ) {
            rejections.append($0)
        } ignore: {
            ignored.append("\($0): \($1)")
        }
        #expect([totals.rows, totals.inserted, totals.duplicates, totals.rejected] as [Int] == [7, 4, 0, 3])
        #expect(rejections.map(\.line) == [3, 5, 7])
        #expect(rejections[0].message == "the record has 4 cells, the header 3 (a comma that is not in quotes?)")
        #expect(rejections[1].message == "the \"name\" field is not valid UTF-8 (save the file as CSV UTF-8)")
        #expect(rejections[2].reason == .invalid(.unsafeCharacters(field: "email", scalar: 0x0A)))
        // A flag that is neither yes nor no costs the flag, not the contact.
        #expect(ignored == [#"6: "contacted" "maybe" is not yes or no"#])
        #expect(try store.count() == 4)
        #expect(try store.prospect(.email("p4@example.com"))?.isContacted == true)
    }

    /// CRM exports hold two-line company fields, and now and then a name broken over two lines, or a tab pasted
    /// from a spreadsheet: the row goes in with each line break or tab (and the spaces around it) turned into one
    /// space.
    @Test func lineBreaksAndTabsInCellsBecomeSpaces() throws {
        let lines = [
            "name,email,organization,phone", "\"Ann\r\n  Smith\",ann@example.com,\"ACME\nBranch 2 \n\",",
            "Bob,bob@example.com,\"\n\",\"+1 555\n0100\"", "Tab\t\tName,tab@example.com,Org \tX,",
        ]
        let (totals, rejected) = try importCSV(lines, batchSize: 10)
        #expect(totals.inserted == 3 && rejected.isEmpty)
        let tab = try #require(try store.prospect(.email("tab@example.com")))
        #expect(tab.prospect.name == "Tab Name" && tab.prospect.organization == "Org X")
        let ann = try #require(try store.prospect(.email("ann@example.com")))
        #expect(ann.prospect.name == "Ann Smith" && ann.prospect.organization == "ACME Branch 2")
        let bob = try #require(try store.prospect(.email("bob@example.com")))
        #expect(bob.prospect.organization == nil && bob.prospect.phone == "+1 555 0100")
        #expect(Importer.joiningLines("a \u{2028}\u{2028} b\u{85}c\n") == "a b c")
    }

    /// The byte search finds what the scalar rule finds: each break and the tab, and none of the scalars whose
    /// UTF-8 shares a byte with one (U+0105 ends in 0x85, U+2027 and U+202A start E2 80, U+0C85 holds 0x85), in
    /// native strings and in one made from an `NSString`.
    @Test func theFirstLineBreakIsFoundByBytesAsByScalars() {
        let pieces = [
            "", "a", "Zoë", "\u{0105}", "\u{2027}", "\u{202A}", "\u{0C85}", "\u{1F600}", "\u{85}", "\u{2028}",
            "\u{2029}", "\n", "\r", "\u{0B}", "\u{0C}", "\t", " ",
        ]
        func byScalars(_ text: String, orTab: Bool) -> Unicode.Scalar? {
            text.unicodeScalars.first { scalar in
                switch scalar.value {
                case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
                case 0x09: orTab
                default: false
                }
            }
        }
        for first in pieces {
            for second in pieces {
                let text = "x" + first + "y" + second
                for orTab in [false, true] {
                    #expect(Importer.firstBreak(in: text, orTab: orTab) == byScalars(text, orTab: orTab), "\(text)")
                }
                let bridged = NSString(string: text) as String
                #expect(Importer.firstNewline(in: bridged) == byScalars(text, orTab: false))
            }
        }
    }

    @Test func aJSONLineThatIsNoContactIsRejectedAloneAndTheImportGoesOn() throws {
        let path = folder.file("list.jsonl")
        let lines = [
            #"{"name":"A","email":"a@example.com"}"#, "not json", #"{"name":"B"}"#,
            #"{"name":"C","phone":1,"email":"c@example.com"}"#,
            #"{"name":"D","email":"d@example.com","contacted":"maybe"}"#, #"{"name":"E","email":"e@example.com"}"#,
            #"{"name":"F","email":"f@example.com","remindAt":"tomorrow"}"#,
            #"{"name":"G","email":"g@example.com","createdAt":"3000-01-01T00:00:00Z"}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        var rejected: [Int] = []
        var ignored: [Int] = []
        let totals = try Importer(store: store, batchSize: 2).run(
            source: "list.jsonl", reader: try JSONLinesRecordReader(path: path)
        ) {
            rejected.append($0.line)
        } ignore: { line, _ in
            ignored.append(line)
        }
        #expect([totals.rows, totals.inserted, totals.rejected] as [Int] == [8, 6, 2])
        #expect(rejected == [2, 3])
        #expect(ignored == [5, 7], "a flag that is no flag and a reminder that is no date are left out")
        #expect(try store.prospect(.email("c@example.com"))?.prospect.phone == "1", "a number is a phone number")
        // An added date in the future is taken as the import's own time, or it would head `--sort recent` for ever.
        #expect(try #require(try store.prospect(.email("g@example.com"))).createdAt <= Date())
        #expect(try store.prospect(.email("e@example.com")) != nil)
    }

    @Test func aListFlagOnlyMakesNewProspectsContacted() throws {
        _ = try store.record([
            Sighting(
                prospect: Prospect(name: "Ada", email: "ada@example.org"), source: "scan.png",
                seenAt: Date())
        ])
        let (totals, _) = try importCSV(
            [
                "name,email,contacted", "Ada,ada@example.org,yes", "Grace,grace@example.mil,yes",
                "Grace,GRACE@example.mil,no",
            ],
            batchSize: 1)
        #expect(totals.inserted == 1 && totals.duplicates == 2)
        #expect(try store.prospect(.email("ada@example.org"))?.isContacted == false, "the team's state is kept")
        #expect(try store.prospect(.email("grace@example.mil"))?.isContacted == true, "the first row created her")
    }

    @Test func aStoreErrorStopsTheReadingThreadAndIsThrown() throws {
        // A real failure: another connection drops the table the import writes to.
        executeElsewhere("PRAGMA foreign_keys = OFF; DROP TABLE prospects")
        // Many batches, so the reader is still running, or waiting to hand over, when the writer fails.
        let lines = ["name,email"] + (1...2_000).map { "P\($0),p\($0)@example.com" }
        #expect(throws: StoreError.self) { try importCSV(lines, batchSize: 10) }
    }

    /// A store failure half-way: what the importer says is committed is exactly what the store holds, though
    /// batches share transactions, and the rows of the batch that failed are not in.
    @Test func afterAStoreFailureCommittedIsWhatTheStoreHolds() throws {
        // A real failure at row 1,500, in the middle of a batch.
        failInserting("p1500@example.com")
        let path = folder.file("list.csv")
        let lines = ["name,email"] + (1...3_000).map { "P\($0),p\($0)@example.com" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let importer = Importer(store: store, batchSize: 100)
        #expect(throws: StoreError.self) {
            try importer.run(source: "list.csv", reader: try CSVRecordReader(path: path)) { _ in }
        }
        let count = try store.count()
        #expect(importer.committed.inserted == count && importer.committed.rows == count)
        #expect(count <= 1_400, "the batch holding row 1,500 starts at row 1,401")
        #expect(importer.committedThroughLine == (count == 0 ? 0 : count + 1), "line 1 is the header")
        #expect(try store.prospect(.email("p1401@example.com")) == nil)
    }

    /// A list imported again, known by its bytes: nobody is counted twice, and only a prospect deleted since comes
    /// back, as a picture ingested again brings back its own.
    @Test func aListImportedBeforeCountsNobodyTwiceAndBringsBackOnlyTheDeleted() throws {
        let path = folder.file("list.csv")
        let lines = [
            "name,email", "Ada,ada@example.com", "Bob,bob@example.com", "Ada L,ADA@example.com", "Cy,cy@x.org",
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let hash = try #require(try ContentHash.sha256(ofRegularFile: path))
        func importList() throws -> (Importer.Totals, LedgerEntry?) {
            let importer = Importer(store: store, batchSize: 2)
            let totals = try importer.run(
                source: "list.csv", reader: try CSVRecordReader(path: path), contentHash: hash
            ) { _ in }
            return (totals, importer.importedBefore)
        }

        let (first, before) = try importList()
        #expect(before == nil)
        #expect(first.inserted == 3 && first.duplicates == 1 && first.alreadyIn == 0)
        let entry = try #require(try store.ledgerEntry(contentHash: hash))
        #expect(entry.fileName == "list.csv" && entry.outcome == .inserted && entry.prospects == 4)
        let ada = try #require(try store.prospect(.email("ada@example.com")))
        #expect(ada.scanCount == 2)

        #expect(try store.delete(.email("bob@example.com")))
        let (second, known) = try importList()
        #expect(known == entry)
        #expect(second.rows == 4 && second.inserted == 1 && second.duplicates == 0 && second.alreadyIn == 3)
        #expect(try store.prospect(.email("ada@example.com"))?.scanCount == 2)
        #expect(try store.history(of: ada.id).count == 2)
        #expect(try store.prospect(.email("bob@example.com"))?.scanCount == 1)
        #expect(try store.count() == 3)
    }

    /// The ledger hears of a list only once its last row is in: an import that stopped half-way is finished with
    /// `--from-line`, and that completes the entry.
    @Test func aListThatStoppedHalfWayIsNotInTheLedgerUntilItIsFinished() throws {
        failInserting("p150@example.com")
        let path = folder.file("list.csv")
        let lines = ["name,email"] + (1...300).map { "P\($0),p\($0)@example.com" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let hash = try #require(try ContentHash.sha256(ofRegularFile: path))
        let stopped = Importer(store: store, batchSize: 100)
        #expect(throws: StoreError.self) {
            try stopped.run(source: "list.csv", reader: try CSVRecordReader(path: path), contentHash: hash) { _ in }
        }
        #expect(try store.ledgerEntry(contentHash: hash) == nil)

        executeElsewhere("DROP TRIGGER fail")
        let finishing = Importer(store: store, batchSize: 100, firstLine: stopped.committedThroughLine + 1)
        let rest = try finishing.run(source: "list.csv", reader: try CSVRecordReader(path: path), contentHash: hash) {
            _ in
        }
        #expect(finishing.importedBefore == nil)
        #expect(rest.inserted + stopped.committed.inserted == 300)
        #expect(try store.ledgerEntry(contentHash: hash)?.prospects == rest.inserted)
    }

    @Test func aFileIsHashedAsItsBytesAndAPipeNotAtAll() throws {
        let path = folder.file("list.csv")
        let bytes = Array((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try ContentHash.sha256(ofRegularFile: path) == ContentHash.sha256(bytes))
        // Reading a pipe or a device would use up what the import itself must read; a FIFO nobody writes to is not
        // waited for.
        let fifo = folder.file("pipe")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(try ContentHash.sha256(ofRegularFile: fifo) == nil)
        #expect(try ContentHash.sha256(ofRegularFile: "/dev/null") == nil)
        #expect(throws: SystemCallError.self) { try ContentHash.sha256(ofRegularFile: folder.file("missing.csv")) }
        // A list replaced since it was looked at (an export rewritten and renamed over it) is not hashed for it.
        let identity = try #require(FileIdentity(ofFileAt: path))
        #expect(try ContentHash.sha256(ofRegularFile: path, expected: identity) == ContentHash.sha256(bytes))
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("new.csv")))
        #expect(rename(folder.file("new.csv"), path) == 0)
        #expect(try ContentHash.sha256(ofRegularFile: path, expected: identity) == nil)
    }

    /// A list that records nobody enters no ledger: neither one whose rows were all rejected nor a `--from-line`
    /// past its end (a line number from another file), so that the real import later counts as it should.
    @Test func aListThatRecordsNobodyIsNotRemembered() throws {
        let path = folder.file("list.csv")
        let lines = ["name,email", "Ada,ada@example.com", "Bob,bob@example.com", "Cy,cy@example.com"]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let hash = try #require(try ContentHash.sha256(ofRegularFile: path))
        let pastTheEnd = Importer(store: store, batchSize: 2, firstLine: 100)
        let none = try pastTheEnd.run(source: "list.csv", reader: try CSVRecordReader(path: path), contentHash: hash) {
            _ in
        }
        #expect(none.rows == 0)
        #expect(try store.ledgerEntry(contentHash: hash) == nil)

        let rejected = folder.file("rejected.csv")
        try Data("name,email\nAda,not an address\n".utf8).write(to: URL(fileURLWithPath: rejected))
        let rejectedHash = try #require(try ContentHash.sha256(ofRegularFile: rejected))
        let bad = try Importer(store: store).run(
            source: "rejected.csv", reader: try CSVRecordReader(path: rejected), contentHash: rejectedHash
        ) { _ in }
        #expect(bad.rejected == 1)
        #expect(try store.ledgerEntry(contentHash: rejectedHash) == nil)

        // Three rows in batches of two: the entry commits with a last batch that holds a row.
        let importer = Importer(store: store, batchSize: 2)
        let all = try importer.run(source: "list.csv", reader: try CSVRecordReader(path: path), contentHash: hash) {
            _ in
        }
        #expect(importer.importedBefore == nil && all.inserted == 3)
        #expect(try store.ledgerEntry(contentHash: hash)?.prospects == 3)
    }

    /// The last batch with rows is the one that ends the list and carries its ledger entry: a list that fills its
    /// batches exactly is not followed by an empty batch (which a Ctrl-C could come before, with every row in).
    @Test(arguments: [(rows: 4, batches: [2, 2]), (rows: 5, batches: [2, 2, 1]), (rows: 0, batches: [0])])
    func theLastBatchWithRowsEndsTheList(rows: Int, batches: [Int]) throws {
        let path = folder.file("list.csv")
        let lines = ["name,email"] + (0..<rows).map { "P\($0),p\($0)@example.com" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let handOff = HandOff<Importer.Batch, ImportError>(capacity: 8)
        Importer.read(
            try CSVRecordReader(path: path), source: "list.csv", seenAt: Date(), batchSize: 2, firstLine: 1,
            into: handOff)
        var received: [Importer.Batch] = []
        while let next = handOff.receive() { received.append(try next.get()) }
        #expect(received.map(\.rows) == batches)
        #expect(received.map(\.endsTheList) == batches.indices.map { $0 == batches.count - 1 })
    }

    /// A list that is no longer the bytes hashed once it has been read (rewritten in place meanwhile) is imported
    /// but not remembered under the old bytes.
    @Test func aListRewrittenWhileItWasReadIsNotRemembered() throws {
        let path = folder.file("list.csv")
        try Data("name,email\nAda,ada@example.com\nBob,bob@example.com\n".utf8).write(to: URL(fileURLWithPath: path))
        let hash = try #require(try ContentHash.sha256(ofRegularFile: path))
        var asked = 0
        let totals = try Importer(store: store).run(
            source: "list.csv", reader: try CSVRecordReader(path: path), contentHash: hash,
            unchanged: {
                asked += 1
                return false
            }
        ) { _ in }
        #expect(totals.inserted == 2 && asked == 1)
        #expect(try store.ledgerEntry(contentHash: hash) == nil)
    }
}
