import Foundation
import ProspectsTestSupport
import Testing

/// The app's list features as commands, run by the built binary against both stores.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// A fresh, empty store of this kind: an SQLite file in `folder`, or a new database on the test server.
    func makeStore(in folder: TemporaryDirectory) throws -> String {
        switch self {
        case .sqlite: folder.file("prospects.sqlite")
        case .postgres: try PostgresTestServer.shared().makeDatabase()
        }
    }
}

/// The two formats `export` writes and `import` reads.
enum ImportRoute: String, CaseIterable, Sendable {
    case csv, json
}

@Suite struct StoreCommandsTests {
    let samples = ProspectsProcess.sampleImages()

    func run(_ arguments: [String], store: String) throws -> ProspectsProcess.Result {
        try ProspectsProcess.run(arguments, environment: ["PROSPECTS_STORE": store])
    }

    func emails(_ result: ProspectsProcess.Result) throws -> [String] {
        try result.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["email"] as? String)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func workingTheList(_ kind: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let store = try kind.makeStore(in: folder)
        #expect(try run(["ingest", samples.path], store: store).status == 65)

        let byName = try emails(run(["list", "--json"], store: store))
        #expect(byName.count == 13)
        #expect(byName.first == "ada@example.org" && byName.last == "li.xiaolong@example.cn", "\(byName)")
        #expect(try emails(run(["list", "--json", "--reverse"], store: store)) == byName.reversed())

        #expect(try run(["mark", "--contacted", "ADA@example.org", "grace@EXAMPLE.mil"], store: store).status == 0)
        let contacted = try emails(run(["list", "--json", "--filter", "contacted"], store: store))
        #expect(Set(contacted) == ["ada@example.org", "grace@example.mil"])
        #expect(try emails(run(["list", "--json", "--filter", "uncontacted"], store: store)).count == 11)
        #expect(try run(["mark", "--uncontacted", "ada@example.org"], store: store).status == 0)
        #expect(try emails(run(["list", "--json", "--filter", "contacted"], store: store)) == ["grace@example.mil"])

        // Every sample was added in one batch; "recent" is most recent first, and --reverse flips it.
        let recent = try emails(run(["list", "--json", "--sort", "recent"], store: store))
        #expect(Set(recent) == Set(byName))
        #expect(
            try emails(run(["list", "--json", "--sort", "recent", "--reverse"], store: store)) == recent.reversed())

        let show = try run(["show", "--json", "PAUL@hackingwithswift.com"], store: store)
        #expect(show.status == 0)
        let paul = try #require(try JSONSerialization.jsonObject(with: show.stdout) as? [String: Any])
        #expect(paul["scanCount"] as? Int == 2)
        let history = try #require(paul["history"] as? [[String: Any]])
        let sources = history.compactMap {
            ($0["source"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent }
        }
        #expect(Set(sources) == ["01-paul-hudson.png", "05-paul-hudson-again.png"])
        let id = try #require(paul["id"] as? Int)
        #expect(try run(["show", "#\(id)"], store: store).output.contains("Paul Hudson"))

        let past = try run(["remind", "--at", "2020-01-01T09:00:00Z", "tim@example.org"], store: store)
        #expect(past.status == 0)
        #expect(try run(["remind", "--in", "1d", "alan@example.co.uk"], store: store).status == 0)
        #expect(try emails(run(["due", "--json"], store: store)) == ["tim@example.org"])
        #expect(try run(["remind", "--clear", "tim@example.org"], store: store).status == 0)
        #expect(try emails(run(["due", "--json"], store: store)).isEmpty)

        let deleted = try run(["delete", "tim@example.org", "#\(id)", "nobody@example.com"], store: store)
        #expect(deleted.status == 65, "one of the three does not exist")
        #expect(deleted.stderr.contains("nobody@example.com: no such prospect"))
        #expect(try emails(run(["list", "--json"], store: store)).count == 11)

        // One prospect named twice (by id, then by address in another case) is deleted once and reported twice.
        let ada = try #require(try emails(run(["list", "--json"], store: store)).first)
        let twice = try run(["delete", ada.uppercased(), ada], store: store)
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(twice.lines == ["\(ada.uppercased()): deleted", "\(ada): deleted"])
        #expect(try emails(run(["list", "--json"], store: store)).count == 10)
    }

    /// The table is written as rows come, with widths from its first 1,000 rows: a later, wider address pushes its
    /// line out rather than being cut; a name over 40 columns is cut with `…` wherever it comes (`show` has it all),
    /// but never inside an escape: the `\\` of a backslash is kept whole or left out.
    @Test func theListTableCutsLongNamesButNeverAddresses() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("p.sqlite")
        let longName = "N" + String(repeating: "x", count: 100)
        let longEmail = String(repeating: "z", count: 60) + "@example.com"
        let slashed = "B" + String(repeating: "x", count: 37) + #"\yyyy"#
        var csv = "name,email\n\(longName),long@example.com\nZed,\(longEmail)\n\(slashed),slash@example.com\n"
        for index in 1...1_200 { csv += "P\(index),p\(index)@example.com\n" }
        let list = folder.file("list.csv")
        try Data(csv.utf8).write(to: URL(fileURLWithPath: list))
        #expect(try run(["import", "--format", "csv", list], store: store).status == 0)
        let table = try run(["list"], store: store)
        #expect(table.status == 0)
        #expect(table.lines.first?.hasPrefix("ID") == true)
        #expect(table.lines.last == "1203 prospects (everyone)")
        let cut = "N" + String(repeating: "x", count: 38) + "…"
        #expect(table.lines.contains { $0.contains(cut + "  long@example.com") }, "\(table.lines.prefix(3))")
        let slashCut = "B" + String(repeating: "x", count: 37) + "…"
        #expect(table.lines.contains { $0.contains(slashCut + "   slash@example.com") }, "\(table.lines.prefix(4))")
        #expect(table.lines.last { $0.contains("Zed") }?.contains(" " + longEmail + "  no  ") == true)
        #expect(try run(["show", "long@example.com"], store: store).output.contains(longName))
    }

    @Test(arguments: StoreKind.allCases)
    func exportsReadBackThroughIndependentParsers(_ kind: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let store = try kind.makeStore(in: folder)
        _ = try run(["ingest", samples.path], store: store)
        #expect(try run(["mark", "--contacted", "ada@example.org"], store: store).status == 0)
        let expected = try run(["list", "--json"], store: store).lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return "\(object["name"] as! String)\t\(object["email"] as! String)"
        }
        #expect(expected.count == 13)

        let vcf = folder.file("prospects.vcf")
        #expect(try run(["export", "--format", "vcard", "-o", vcf], store: store).status == 0)
        let fromVCard = try python(
            """
            import sys, vobject
            for card in vobject.readComponents(open(sys.argv[1], encoding="utf-8").read()):
                print(card.fn.value + "\\t" + card.email.value)
            """, vcf)
        #expect(fromVCard == expected)

        let csv = folder.file("prospects.csv")
        #expect(try run(["export", "--format", "csv", "-o", csv], store: store).status == 0)
        let fromCSV = try python(
            """
            import sys, csv
            for row in csv.DictReader(open(sys.argv[1], encoding="utf-8", newline="")):
                print(row["name"] + "\\t" + row["email"])
            """, csv)
        #expect(fromCSV == expected)

        // And our own import reads our own export into a fresh store: same people, nothing new the second time,
        // and nobody counted twice unless asked.
        let otherFolder = try TemporaryDirectory()
        let other = try StoreKind.sqlite.makeStore(in: otherFolder)
        let imported = try run(["import", "--json", "--format", "csv", csv], store: other)
        #expect(imported.output.hasPrefix(#"{"rows":13,"inserted":13,"duplicates":0,"rejected":0}"#))
        let again = try run(["import", "--json", "--format", "csv", csv], store: other)
        #expect(
            again.output.hasPrefix(
                #"{"rows":13,"inserted":0,"duplicates":0,"rejected":0,"alreadyIn":13,"importedBefore":""#))
        let counted = try run(["import", "--json", "--again", "--format", "csv", csv], store: other)
        #expect(counted.output.hasPrefix(#"{"rows":13,"inserted":0,"duplicates":13,"rejected":0}"#))
        #expect(try emails(run(["list", "--json", "--filter", "contacted"], store: other)) == ["ada@example.org"])
    }

    /// The same list imported again counts nobody twice and says so, on both stores; `--again` counts it, and a list
    /// read from a pipe is not remembered (its bytes are not known before they are read).
    @Test(arguments: StoreKind.allCases)
    func aListImportedAgainCountsNobodyTwice(_ kind: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let store = try kind.makeStore(in: folder)
        let list = "name,email\nAda,ada@example.com\nBob,bob@example.com\n"
        let csv = folder.file("list.csv")
        try Data(list.utf8).write(to: URL(fileURLWithPath: csv))
        func scans() throws -> [Int] {
            try run(["list", "--json"], store: store).lines.map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return try #require(object["scanCount"] as? Int)
            }
        }
        #expect(
            try run(["import", "--format", "csv", csv], store: store).lines == [
                "2 rows: 2 inserted, 0 duplicates, 0 rejected"
            ])
        let again = try run(["import", "--format", "csv", csv], store: store)
        #expect(again.status == 0)
        #expect(
            again.lines.first?.hasPrefix(
                "2 rows: 0 inserted, 0 duplicates, 0 rejected, 2 already in (the same list was imported on ") == true,
            "\(again.output)")
        #expect(again.output.contains("--again counts its rows once more"))
        #expect(try scans() == [1, 1])
        // Looking the list over took no ids: the next new prospect is the third, in both stores.
        let next = folder.file("next.csv")
        try Data("name,email\nCy,cy@example.com\n".utf8).write(to: URL(fileURLWithPath: next))
        #expect(try run(["import", "--format", "csv", next], store: store).status == 0)
        #expect(try run(["show", "--json", "cy@example.com"], store: store).output.contains(#""id":3,"#))
        #expect(try run(["delete", "cy@example.com"], store: store).status == 0)
        #expect(try run(["import", "--again", "--format", "csv", csv], store: store).status == 0)
        #expect(try scans() == [2, 2])
        let piped = try ProspectsProcess.run(
            ["import", "--format", "csv", "-"], environment: ["PROSPECTS_STORE": store], stdin: Data(list.utf8))
        #expect(piped.lines == ["2 rows: 0 inserted, 2 duplicates, 0 rejected"], "\(piped.output)")
        #expect(try scans() == [3, 3])
    }

    /// The same list imported twice at once (two terminals, an overlapping cron job) counts everyone once: the
    /// second import waits for the first and then finds the list in the ledger. Both counted every row before.
    @Test(arguments: StoreKind.allCases)
    func oneListImportedTwiceAtOnceCountsEveryoneOnce(_ kind: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let store = try kind.makeStore(in: folder)
        let first = folder.file("first.csv")
        try Data("name,email\nAda,ada@example.com\n".utf8).write(to: URL(fileURLWithPath: first))
        #expect(try run(["import", "--format", "csv", first], store: store).status == 0)  // the store, made once
        let rows = 5_000
        var list = "name,email\n"
        for index in 0..<rows { list += "Person \(index),p\(index)@example.com\n" }
        let csv = folder.file("list.csv")
        try Data(list.utf8).write(to: URL(fileURLWithPath: csv))
        // The shell holds the list locked until both imports say they wait (30 s at most, for imports that never
        // would), so that they overlap however slowly they start; then the first to get the lock imports and the other finds the list in the ledger.
        let twice = [
            "/bin/sh", "-c",
            #"exec 9<"$LIST"; flock 9; "$0" "$@" 9<&- 2>>"$ERR" & a=$!; "$0" "$@" 9<&- 2>>"$ERR" & b=$!; "#
                + #"n=0; until [ "$(grep -c 'waiting for it to end' "$ERR")" -ge 2 ] || [ $n -ge 1500 ]; "#
                + #"do sleep 0.02; n=$((n + 1)); done; flock -u 9; "#
                + #"wait $a; first=$?; wait $b; second=$?; cat "$ERR" >&2; exit $((first | second))"#,
        ]
        let result = try ProspectsProcess.run(
            ["import", "--format", "csv", csv],
            environment: ["PROSPECTS_STORE": store, "LIST": csv, "ERR": folder.file("stderr.txt")], launcher: twice)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.contains("\(rows) rows: \(rows) inserted, 0 duplicates, 0 rejected"), "\(result.output)")
        #expect(
            result.lines.contains {
                $0.hasPrefix("\(rows) rows: 0 inserted, 0 duplicates, 0 rejected, \(rows) already in")
            },
            "\(result.output)")
        #expect(result.stderr.contains("another import of this list is running; waiting for it to end"))
        let scans = try run(["list", "--json"], store: store).lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["scanCount"] as? Int)
        }
        #expect(scans.count == rows + 1)
        #expect(scans.allSatisfy { $0 == 1 })
    }

    /// Moving a list between stores (SQLite to PostgreSQL as a team grows, and back) through `export` and `import`
    /// keeps each prospect's details, contacted flag, added date and reminder, in both formats.
    @Test(arguments: [ImportRoute.csv, .json])
    func exportThenImportIntoTheOtherKindOfStoreKeepsWhatTheTeamEntered(_ route: ImportRoute) throws {
        let folder = try TemporaryDirectory()
        let source = try StoreKind.sqlite.makeStore(in: folder)
        let target = try StoreKind.postgres.makeStore(in: folder)
        _ = try run(["ingest", samples.path], store: source)
        #expect(try run(["mark", "--contacted", "ada@example.org"], store: source).status == 0)
        #expect(try run(["remind", "--at", "2031-05-06T07:08:09Z", "grace@example.mil"], store: source).status == 0)
        let file = folder.file("list.\(route.rawValue)")
        #expect(try run(["export", "--format", route.rawValue, "-o", file], store: source).status == 0)
        let imported = try run(["import", "--json", "--format", route.rawValue, file], store: target)
        #expect(imported.output.hasPrefix(#"{"rows":13,"inserted":13,"duplicates":0,"rejected":0}"#))

        func kept(_ store: String) throws -> [String] {
            try run(["list", "--json"], store: store).lines.map { line in
                var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                for key in ["id", "lastSeenAt", "scanCount", "source"] { object[key] = nil }
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                return String(decoding: data, as: UTF8.self)
            }
        }
        let before = try kept(source)
        #expect(before.count == 13)
        let after = try kept(target)
        #expect(after == before, "\(zip(after, before).filter { $0 != $1 })")
        #expect(before.contains { $0.contains(#""remindAt":"2031-05-06T07:08:09.000Z""#) }, "\(before)")
    }

    /// The content ledger keeps a picture from counting twice, but not from bringing back a prospect deleted since.
    @Test(arguments: StoreKind.allCases)
    func scanningACardAgainBringsBackADeletedProspect(_ kind: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let store = try kind.makeStore(in: folder)
        let paul = samples.appendingPathComponent("01-paul-hudson.png").path
        #expect(try run(["ingest", paul], store: store).output.hasPrefix("1 file: 1 inserted"))
        #expect(try run(["ingest", paul], store: store).output.hasPrefix("1 file: 0 inserted, 1 duplicate,"))
        #expect(try run(["delete", "paul@hackingwithswift.com"], store: store).status == 0)
        let again = try run(["ingest", "--json", paul], store: store)
        #expect(again.status == 0 && again.output.contains(#""stored":"inserted""#), "\(again.output)")
        let shown = try run(["show", "--json", "paul@hackingwithswift.com"], store: store)
        #expect(shown.status == 0 && shown.output.contains(#""scanCount":1"#), "\(shown.output)")
    }

    /// `remind --at` reads local time, and people see dates in local time too, named by their zone: a reminder
    /// set for 14:30 in Paris does not come back as 13:30.
    @Test func datesAreShownInTheLocalTimeRemindReads() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let list = folder.file("list.csv")
        try Data("name,email\nTim Berners-Lee,tim@example.org\n".utf8).write(to: URL(fileURLWithPath: list))
        #expect(try run(["import", "--format", "csv", list], store: store).status == 0)
        func inZone(_ zone: String, _ arguments: [String]) throws -> ProspectsProcess.Result {
            try ProspectsProcess.run(arguments, environment: ["PROSPECTS_STORE": store, "TZ": zone])
        }
        let set = try inZone("Europe/Paris", ["remind", "--at", "2026-12-01 14:30", "tim@example.org"])
        #expect(set.lines == ["tim@example.org: reminder at 2026-12-01 14:30 CET"], "\(set.stderr)")
        let summer = try inZone("Europe/Paris", ["remind", "--at", "2027-07-01 14:30", "tim@example.org"])
        #expect(summer.lines == ["tim@example.org: reminder at 2027-07-01 14:30 CEST"], "\(summer.stderr)")
        // TZ in the forms only the C library reads (a leading colon, a POSIX rule) means the same local time.
        for zone in [":Europe/Paris", "CET-1CEST,M3.5.0,M10.5.0/3"] {
            let posix = try inZone(zone, ["remind", "--at", "2026-12-01 09:00", "tim@example.org"])
            #expect(posix.lines == ["tim@example.org: reminder at 2026-12-01 09:00 CET"], "\(zone): \(posix.stderr)")
        }
        // What `list` shows, `--at` reads back: the local zone's own name, for the moment it names.
        let shownForm = try inZone("Europe/Paris", ["remind", "--at", "2026-12-01 14:30 CET", "tim@example.org"])
        #expect(shownForm.lines == ["tim@example.org: reminder at 2026-12-01 14:30 CET"], "\(shownForm.stderr)")
        let wrongName = try inZone("Europe/Paris", ["remind", "--at", "2027-07-01 14:30 CET", "tim@example.org"])
        #expect(wrongName.status == 64 && wrongName.stderr.contains("expected a date"), "\(wrongName.stderr)")
        #expect(try inZone("Europe/Paris", ["remind", "--at", "2027-07-01 14:30", "tim@example.org"]).status == 0)
        for (zone, shown) in [
            ("UTC", "2027-07-01 12:30 UTC"), ("America/New_York", "2027-07-01 08:30 EDT"),
            ("Asia/Kolkata", "2027-07-01 18:00 IST"), ("Asia/Kathmandu", "2027-07-01 18:15 UTC+05:45"),
        ] {
            let show = try inZone(zone, ["show", "tim@example.org"])
            #expect(show.lines.contains { $0.hasSuffix(shown) && $0.contains("reminder") }, "\(zone): \(show.output)")
            let due = try inZone(zone, ["due", "--json"])
            #expect(due.status == 0 && due.output.isEmpty, "not due yet, whatever the zone")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func fourProcessesIngestingOverlappingSetsMakeNoDuplicates(_ kind: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let store = try kind.makeStore(in: folder)
        // 40 people; process k gets people k*8 ..< k*8+16, so neighbouring sets share 8 people.
        let people = (0..<40).map { "Person \($0)\nperson\($0)@example.com" }
        var sets: [String] = []
        for k in 0..<4 {
            let set = folder.url.appendingPathComponent("set\(k)")
            try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
            for index in (k * 8)..<(k * 8 + 16) {
                // Each set's picture of a person is its own photo (other module size), not a copy of the same file.
                let png = PNGFixtures.contactCode(people[index], moduleSize: 3 + k)
                try Data(png).write(to: set.appendingPathComponent("p\(index).png"))
            }
            sets.append(set.path)
        }
        // Every set also holds one shared person, so all four race on the same address at once.
        for (k, set) in sets.enumerated() {
            try Data(PNGFixtures.contactCode("Shared Person\nshared@example.com", moduleSize: 3 + k))
                .write(to: URL(fileURLWithPath: set).appendingPathComponent("shared.png"))
        }
        let results = try concurrentRuns(sets.map { ["ingest", "--json", "--store", store, $0] })
        var sightings = 0
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.lowercased().contains("locked") && !result.stderr.contains("busy"))
            let summary = try #require(
                try JSONSerialization.jsonObject(with: Data(result.lines.last!.utf8)) as? [String: Any])
            sightings += (summary["inserted"] as! Int) + (summary["duplicates"] as! Int)
        }
        let list = try run(["list", "--json"], store: store).lines
        #expect(list.count == 41, "40 people in the sets + the shared one, each once")
        let scans = try list.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object["scanCount"] as! Int
        }
        #expect(scans.reduce(0, +) == sightings)
        #expect(sightings == 4 * 16 + 4, "four sets of 16 people, plus the shared file in each")
    }

    /// A store that fails part-way through an ingest (here the role loses its INSERT privilege once the first batch
    /// is in) is named with what is in already and how to finish; the run used to end on the store's message alone.
    @Test func anIngestWhoseStoreFailsSaysWhatIsInAndHowToFinish() throws {
        let folder = try TemporaryDirectory()
        let url = try PostgresTestServer.shared().makeDatabase()
        let cards = folder.file("cards")
        try FileManager.default.createDirectory(atPath: cards, withIntermediateDirectories: false)
        for index in 0..<1_200 {
            let png = PNGFixtures.contactCode("Person \(index)\np\(index)@example.com", moduleSize: 8)
            try Data(png).write(to: URL(fileURLWithPath: cards + "/card-\(index).png"))
        }
        #expect(try ProspectsProcess.run(["list", "--store", url]).status == 0)  // the tables
        let role = "loader_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PostgresTestServer.execute("CREATE ROLE \(role)", url: url)
        try PostgresTestServer.execute(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO \(role)", url: url)
        defer {
            try? PostgresTestServer.execute("DROP OWNED BY \(role)", url: url)
            try? PostgresTestServer.execute("DROP ROLE \(role)", url: url)
        }
        let asRole = url + (url.contains("?") ? "&" : "?") + "options=-c%20role%3D\(role)"
        let revoking = [
            "/bin/sh", "-c",
            #""$0" "$@" & pid=$!; until ! kill -0 $pid 2>/dev/null || [ "$(psql "$ADMIN" -Atc 'SELECT count(*) FROM prospects')" -gt 0 ] "#
                + #"2>/dev/null; do sleep 0.02; done; psql "$ADMIN" -qc "REVOKE INSERT ON prospects FROM $ROLE"; wait $pid"#,
        ]
        let result = try ProspectsProcess.run(
            ["ingest", "--jobs", "1", "--store", asRole, cards], environment: ["ADMIN": url, "ROLE": role],
            launcher: revoking)
        #expect(result.status == 77, "\(result.stderr)")
        let match = try #require(
            result.stderr.firstMatch(of: #/stopped after (\d+) of 1200 files: the files reported are in the store/#),
            "\(result.stderr)")
        let done = try #require(Int(match.1))
        #expect(done > 0 && done < 1_200)
        #expect(result.stderr.contains("the same command loads them"), "\(result.stderr)")
        #expect(result.lines.isEmpty)
        try PostgresTestServer.execute("GRANT INSERT ON prospects TO \(role)", url: url)
        let rest = try ProspectsProcess.run(["ingest", "--store", asRole, cards])
        #expect(rest.output == "1200 files: \(1_200 - done) inserted, \(done) duplicates, 0 rejected\n")
    }

    @Test func anUnreachablePostgresFailsFastWithExit69AndNoPassword() throws {
        let started = Date()
        let result = try ProspectsProcess.run(["list", "--store", "postgres://scanner:s3cret-pw@127.0.0.1:1/prospects"])
        #expect(result.status == 69)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(!result.stderr.contains("s3cret-pw"))
        #expect(result.stderr.contains("unavailable"))
    }

    /// Every way a reviewer made a password reach stderr: a `?` in it, `password=` after `sslpassword=`, a bad
    /// %-escape that libpq quotes, an upper-case scheme libpq reads as `key=value` text, an unclosed IPv6 bracket.
    @Test func noPostgresURLShowsItsPassword() throws {
        let urls = [
            "postgres://u:S3cr3t?pw@127.0.0.1:1/p", "postgres://u@127.0.0.1:1/p?sslpassword=x&password=S3cr3tB",
            "postgres://u:se%zzS3cr3t@127.0.0.1:1/p", "POSTGRES://u:S3cr3t@127.0.0.1:1/p",
            "postgres://u:S3cr3t@[::1/p", "postgresql://u:S3cr3t#x@127.0.0.1:1/p",
        ]
        for url in urls {
            let result = try ProspectsProcess.run(["list", "--store", url])
            #expect(result.status != 0, "\(url)")
            #expect(!result.stderr.contains("S3cr3t"), "\(url): \(result.stderr)")
        }
        // An audit's finds: an '@' not written %40 (libpq took the rest for the host and quoted it), a password
        // parameter with its name %-escaped, unknown parameters, and mistyped schemes, which used to become SQLite
        // files named after the URL. All are usage errors now, and leave no file behind.
        let folder = try TemporaryDirectory()
        let refused = [
            "postgres://u:Top@S3cr3tC@127.0.0.1:1/p", "postgres://u@127.0.0.1:1/p?pass%77ord=S3cr3tQ&bogus=1",
            "postgress://u:S3cr3t@127.0.0.1:1/p", "pg://u:S3cr3t@h/p", "postgres:/u:S3cr3t@h/p", "postgres:u:S3cr3t@x",
            // A '/' or a '?' then an '@' in the password: libpq reads the rest as the host, port or database.
            "postgres://u:S3cr3t/xY+z=@127.0.0.1:1/p", "postgres://u:abc?S3cr3t@ghi@127.0.0.1:1/p",
        ]
        for url in refused {
            let result = try ProspectsProcess.run(
                ["ingest", "--store", url, folder.path], currentDirectory: folder.url)
            #expect(result.status == 64, "\(url): \(result.stderr)")
            #expect(!result.stderr.contains("S3cr3t"), "\(url): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // A URL pasted with a space before it is still the URL, and a URL given where a file or a prospect goes is
        // shown without its password.
        let spaced = try ProspectsProcess.run(["list", "--store", " postgres://u:S3cr3t@127.0.0.1:1/p"])
        #expect(spaced.status == 69 && spaced.stderr.contains("postgres://u:***@127.0.0.1:1/p"), "\(spaced.stderr)")
        // Hiding a password parameter does not hide the rest of the message: why the connection failed.
        let parameter = try ProspectsProcess.run(["list", "--store", "postgres://u@127.0.0.1:1/p?password=S3cr3t"])
        #expect(parameter.status == 69 && !parameter.stderr.contains("S3cr3t"), "\(parameter.stderr)")
        #expect(parameter.stderr.contains("?password=***: connection to server"), "\(parameter.stderr)")
        let store = folder.file("p.sqlite")
        let url = "postgres://u:S3cr3t@127.0.0.1:1/p"
        for arguments in [
            ["ingest", "--store", store, url], ["decode", "--json", url], ["show", "--store", store, url],
            // …and anywhere else on the command line: every message hides the passwords of the URLs it quotes.
            ["watch", "--store", store, url], ["export", "--format", "csv", "--store", store, "-o", url],
            ["list", "--store", store, "--filter", url], [url, "list"], ["help", url], ["list", "-store=" + url],
        ] {
            let result = try ProspectsProcess.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(!(result.stderr + result.output).contains("S3cr3t"), "\(arguments): \(result.stderr)")
            #expect((result.stderr + result.output).contains("u:***@127.0.0.1:1/p"), "\(arguments): \(result.stderr)")
        }
        // Paths that only look a little like URLs are paths.
        for path in ["pg:x.sqlite", "postgres//x.sqlite", "psql:list.sqlite"] {
            let result = try ProspectsProcess.run(["list", "--store", path], currentDirectory: folder.url)
            #expect(result.status == 69 && result.stderr.contains("there is no store at \(path)"), "\(result.stderr)")
        }
    }

    /// `--store ""` and SQLite's special names are usage errors; `:memory:` leaves no file behind.
    @Test func storeLocationsThatAreNoStoreAreUsageErrors() throws {
        let folder = try TemporaryDirectory()
        for location in ["", ":memory:", "file:x.sqlite?mode=memory"] {
            let result = try ProspectsProcess.run(["list", "--store", location], currentDirectory: folder.url)
            #expect(result.status == 64, "\(location): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// A folder or an empty file given as the store to a command that creates none: a message that says so (69),
    /// and the empty file left empty. SQLite took it for a new database, and `list` wrote a schema into it.
    @Test func aFolderOrAnEmptyFileIsNoStoreForCommandsThatCreateNone() throws {
        let folder = try TemporaryDirectory()
        let empty = folder.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        let listed = try ProspectsProcess.run(["list", "--store", empty])
        #expect(listed.status == 69)
        #expect(listed.stderr.contains("empty.sqlite is an empty file, not a prospect store yet"), "\(listed.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: empty)[.size] as? Int == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["empty.sqlite"])
        let shown = try ProspectsProcess.run(["show", "--store", folder.path, "1"])
        #expect(shown.status == 69 && shown.stderr.contains("is a folder; --store names the store's file"))
    }

    /// Runs a Python snippet with one argument and returns its output lines; the test fails if Python or a module is
    /// missing (Scripts/install-dependencies --test installs vobject).
    /// A store another process keeps locked past the busy timeout (10 s): 75, naming the file and saying what to do.
    @Test func aStoreLockedByAnotherProcessIsNamedWithAdvice() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("busy.sqlite")
        let paul = samples.appendingPathComponent("01-paul-hudson.png").path
        #expect(try run(["ingest", paul], store: store).status == 0)
        let lock = try SQLiteLockHolder(store: store, seconds: 60)
        defer { lock.release() }
        let result = try run(["mark", "--contacted", "1"], store: store)
        #expect(result.status == 75)
        #expect(
            result.stderr.contains("\(store) stayed locked by another process (database is locked); try again"),
            "\(result.stderr)")
        #expect(result.stderr.contains("try again"))
    }

    func python(_ source: String, _ argument: String) throws -> [String] {
        String(decoding: try PythonScript.run(source, argument), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Starts every command at once, each from its own thread, and waits for all.
    func concurrentRuns(_ commands: [[String]]) throws -> [ProspectsProcess.Result] {
        nonisolated(unsafe) var results = [Result<ProspectsProcess.Result, any Error>?](
            repeating: nil, count: commands.count)
        let lock = NSLock()
        let group = DispatchGroup()
        for (index, command) in commands.enumerated() {
            group.enter()
            Thread {
                let result = Result { try ProspectsProcess.run(command) }
                lock.withLock { results[index] = result }
                group.leave()
            }.start()
        }
        group.wait()
        return try results.map { try $0!.get() }
    }
}
