import Foundation
import ProspectsTestSupport
import Testing

/// The command line's contract: help, version, usage errors, exit statuses.
@Suite struct CommandLineTests {
    @Test func versionIsOneLine() throws {
        let result = try ProspectsProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.output.range(of: #"^prospects \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    @Test(arguments: [
        "decode", "ingest", "list", "show", "mark", "delete", "remind", "due", "export", "import", "encode",
    ])
    func everyCommandHasHelpOnStdout(_ command: String) throws {
        for arguments in [[command, "--help"], [command, "-h"], ["help", command]] {
            let result = try ProspectsProcess.run(arguments)
            #expect(result.status == 0)
            #expect(result.output.hasPrefix("OVERVIEW: "))
            #expect(result.output.contains("USAGE: prospects \(command)"))
        }
    }

    @Test func overviewListsCommandsAndExitStatuses() throws {
        let result = try ProspectsProcess.run(["--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("SUBCOMMANDS:") && result.output.contains("EXIT STATUS:"))
        #expect(result.output.contains("65  some input was rejected"))
    }

    @Test func usageErrorsExit64WithAMessageOnStderr() throws {
        for arguments in [[], ["frobnicate"], ["list", "--bogus"], ["decode"], ["list", "--sort", "age"]] {
            let result = try ProspectsProcess.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(!result.stderr.isEmpty)
        }
    }

    /// Reminder times past year 9999 or on days that do not exist are usage errors, not a crash (a duration too
    /// large for the store's integers) or a silent roll-over (2026-02-30 meaning 2 March).
    @Test func reminderTimesOutsideTheCalendarAreUsageErrors() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let empty = folder.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        #expect(try ProspectsProcess.run(["ingest", "--store", store, empty]).status == 0)  // an empty store
        let bad = [
            ["--in", "9223372036854775807s"], ["--in", "999999999w"], ["--in", "101y"], ["--at", "2026-02-30"],
            ["--at", "2026-04-31 10:00"], ["--at", "99999-01-01"], ["--at", "10000-01-01T00:00:00Z"],
        ]
        for option in bad {
            let result = try ProspectsProcess.run(["remind", "--store", store] + option + ["1"])
            #expect(result.status == 64, "\(option): \(result.stderr)")
            #expect(result.stderr.contains("invalid value"), "\(option): \(result.stderr)")
        }
        // The edges that are real dates still reach the store (which has no prospect 1: exit 65).
        for option in [["--at", "2028-02-29"], ["--at", "9999-12-30"], ["--in", "5200w"]] {
            let result = try ProspectsProcess.run(["remind", "--store", store] + option + ["1"])
            #expect(result.status == 65, "\(option): \(result.stderr)")
        }
    }

    /// `import`: a malformed row costs that row (reported as FILE:LINE, exit 65, the summary still printed); a file
    /// that is no list is bad data (65), and only a file that cannot be opened is a missing input (66).
    @Test func importReportsBadRowsAndGoesOnAndTellsBadFilesFromMissingOnes() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let ragged = folder.file("ragged.csv")
        try Data("name,email\nA,a@example.com\nB,b@example.com,oops\nC,c@example.com\n".utf8)
            .write(to: URL(fileURLWithPath: ragged))
        let result = try ProspectsProcess.run(["import", "--json", "--format", "csv", "--store", store, ragged])
        #expect(result.status == 65)
        #expect(
            result.stderr.contains(
                "ragged.csv:3: the record has 3 cells, the header 2 (a comma that is not in quotes?)"),
            "\(result.stderr)")
        #expect(result.output == #"{"rows":3,"inserted":2,"duplicates":0,"rejected":1}"# + "\n")

        let empty = folder.file("empty.csv")
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(try ProspectsProcess.run(["import", "--format", "csv", "--store", store, empty]).status == 65)
        let missing = folder.file("missing.csv")
        #expect(try ProspectsProcess.run(["import", "--format", "csv", "--store", store, missing]).status == 66)

        // A list refused whole for its format leaves no store behind.
        let other = folder.file("other.sqlite")
        let asJSON = try ProspectsProcess.run(["import", "--format", "json", "--store", other, ragged])
        #expect(asJSON.status == 65 && asJSON.stderr.contains("looks like CSV"), "\(asJSON.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other))
    }

    /// `--store` may come before the subcommand, as the overview's STORE line shows it; one file is "1 file".
    @Test func theStoreMayBeNamedBeforeTheSubcommand() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let paul = ProspectsProcess.sampleImages().appendingPathComponent("01-paul-hudson.png").path
        let ingested = try ProspectsProcess.run(["--store", store, "ingest", paul])
        #expect(ingested.status == 0 && ingested.output == "1 file: 1 inserted, 0 duplicates, 0 rejected\n")
        let listed = try ProspectsProcess.run(["--store", store, "list", "--json"])
        #expect(listed.status == 0 && listed.lines.count == 1)
        // The last one given wins, as after the command; a command that needs no store ignores it.
        let twice = try ProspectsProcess.run(["--store", folder.file("other.sqlite"), "--store", store, "list"])
        #expect(twice.status == 0 && twice.output.contains("1 prospect"), "\(twice.stderr)")
        #expect(try ProspectsProcess.run(["--store", store, "decode", paul]).status == 0)
        // Spelled with `=`, as after the command; without a value, a usage error that says so.
        let joined = try ProspectsProcess.run(["--store=\(store)", "list", "--json"])
        #expect(joined.status == 0 && joined.lines.count == 1, "\(joined.stderr)")
        let bare = try ProspectsProcess.run(["--store"])
        #expect(bare.status == 64 && bare.stderr.contains("option '--store' needs a value"), "\(bare.stderr)")
        let swallowed = try ProspectsProcess.run(["--store", "list"])
        #expect(swallowed.status == 64, "\(swallowed.stderr)")
        #expect(swallowed.stderr.contains("option '--store' took 'list' as its value"), "\(swallowed.stderr)")
    }

    /// A folder with no picture to read (here only a hidden one) is no error, but `decode` and `ingest` say so.
    @Test func aFolderWithNoImagesGetsAWarning() throws {
        let folder = try TemporaryDirectory()
        let drop = folder.file("drop")
        try FileManager.default.createDirectory(atPath: drop, withIntermediateDirectories: false)
        let paul = ProspectsProcess.sampleImages().appendingPathComponent("01-paul-hudson.png")
        try FileManager.default.copyItem(at: paul, to: URL(fileURLWithPath: drop + "/.hidden.png"))
        let warning = "no pictures in \(drop) (names starting with '.' are skipped)"
        let decoded = try ProspectsProcess.run(["decode", drop])
        #expect(decoded.status == 0 && decoded.output.isEmpty)
        #expect(decoded.stderr.contains(warning), "\(decoded.stderr)")
        let ingested = try ProspectsProcess.run(["ingest", "--store", folder.file("p.sqlite"), drop])
        #expect(ingested.status == 0 && ingested.output == "0 files: 0 inserted, 0 duplicates, 0 rejected\n")
        #expect(ingested.stderr.contains(warning), "\(ingested.stderr)")
        // Named on the command line, the hidden file is read: the user asked for it. The empty folder beside it is
        // still worth its word.
        let both = try ProspectsProcess.run(["decode", drop + "/.hidden.png", drop])
        #expect(both.status == 0 && both.stderr.contains(warning), "\(both.stderr)")
    }

    /// A store that fails half-way through an import: the message says which rows are in and that importing the
    /// whole file again would count them twice. The failure is a real SQLite error, raised by a trigger on one row of
    /// the second batch. The first batch (1,000 rows) is in unless the second, ready in time, joined its transaction.
    @Test func anImportTheStoreStopsSaysWhatIsAlreadyIn() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("p.sqlite")
        let empty = folder.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        #expect(try ProspectsProcess.run(["ingest", "--store", store, empty]).status == 0)
        let trigger = """
            CREATE TRIGGER stop BEFORE INSERT ON prospects WHEN NEW.email = 'stop@example.com'
            BEGIN SELECT RAISE(ABORT, 'stopped by the test'); END;
            """
        _ = try OutputSafetyTests.sqlite3(store, trigger)
        var csv = "name,email\n"
        for row in 1...2_005 {
            csv += row == 1_003 ? "Stop Here,stop@example.com\n" : "P \(row),p\(row)@example.com\n"
        }
        let list = folder.file("list.csv")
        try Data(csv.utf8).write(to: URL(fileURLWithPath: list))
        let result = try ProspectsProcess.run(["import", "--format", "csv", "--store", store, list])
        #expect(result.status != 0)
        // How many batches were committed before the failing one depends on the writer's timing: the message must
        // say exactly what the store holds, whole batches before the stopping row, and how to go on.
        let count = try OutputSafetyTests.sqlite3(store, "SELECT count(*) FROM prospects")
        if let stopped = result.stderr.range(
            of:
                #"list\.csv: stopped after line (\d+): the rows up to it are in the store \((\d+) recorded, 0 rejected\), the rest are not"#,
            options: .regularExpression)
        {
            let words = result.stderr[stopped].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            let (line, recorded) = (words[0], words[1])
            #expect(line == recorded + 1 && recorded < 1_002 && recorded > 0, "\(result.stderr)")
            #expect(count == "\(recorded)\n")
            #expect(result.stderr.contains("import again with --from-line \(line + 1)"))
        } else {
            #expect(result.stderr.contains("list.csv: stopped; nothing was imported"), "\(result.stderr)")
            #expect(count == "0\n")
        }
        #expect(result.stderr.contains("stopped by the test"))
    }

    /// `import -` reads stdin, named `stdin` in messages and in each row's source; a cell it cannot read costs the
    /// cell (exit 65, said), not the row.
    @Test func importReadsStdinAndKeepsARowWhoseDateItCannotRead() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("p.sqlite")
        let csv = "name;email;reminder\nAnn;ann@example.com;call next week\nBob\n"
        let result = try ProspectsProcess.run(
            ["import", "--format", "csv", "--store", store, "-"], stdin: Data(csv.utf8))
        #expect(result.status == 65)
        #expect(result.output == "2 rows: 1 inserted, 0 duplicates, 1 rejected\n")
        #expect(
            result.stderr.contains(
                #"stdin:2: "reminder" "call next week" is not a date; the row was imported without it"#),
            "\(result.stderr)")
        #expect(result.stderr.contains("stdin:3: no email address is given"), "\(result.stderr)")
        let shown = try ProspectsProcess.run(["show", "--store", store, "ann@example.com"])
        #expect(shown.lines.contains { $0.hasPrefix("first source") && $0.hasSuffix("stdin:2") }, "\(shown.output)")
    }

    /// Ctrl-C during an import stops it before the next batch is written and says which rows are in: exactly those
    /// the store holds. Before, the process died in silence, and nobody knew what to import again.
    @Test func anInterruptedImportSaysWhatIsAlreadyIn() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("p.sqlite")
        let list = try folder.contactList(300_000)
        // Interrupted once a batch is in, as a person would after a while.
        let interrupting = [
            "/bin/sh", "-c",
            #""$0" "$@" & pid=$!; until ! kill -0 $pid 2>/dev/null || [ "$(sqlite3 "$STORE" 'SELECT count(*) FROM prospects' 2>/dev/null)" -gt 0 ] "#
                + #"2>/dev/null; do sleep 0.05; done; kill -INT $pid; wait $pid"#,
        ]
        let result = try ProspectsProcess.run(
            ["import", "--format", "csv", "--store", store, list], environment: ["STORE": store],
            launcher: interrupting)
        #expect(result.status == 130, "\(result.stderr)")
        let pattern =
            #/list\.csv: interrupted after line (\d+): the rows up to it are in the store \((\d+) recorded, 0 rejected\)/#
        let match = try #require(result.stderr.firstMatch(of: pattern), "\(result.stderr)")
        let recorded = try #require(Int(match.2))
        #expect(Int(match.1) == recorded + 1 && recorded < 300_000)
        #expect(try OutputSafetyTests.sqlite3(store, "SELECT count(*) FROM prospects") == "\(recorded)\n")
        // The message says how to finish: from the next line on, nobody counted twice.
        let next = try #require(Int(match.1)) + 1
        #expect(result.stderr.contains("import again with --from-line \(next) to add them"), "\(result.stderr)")
        let rest = try ProspectsProcess.run(
            ["import", "--format", "csv", "--store", store, "--from-line", "\(next)", list])
        #expect(rest.output == "\(300_000 - recorded) rows: \(300_000 - recorded) inserted, 0 duplicates, 0 rejected\n")
        #expect(
            try OutputSafetyTests.sqlite3(store, "SELECT count(*), max(scan_count) FROM prospects") == "300000|1\n")
    }

    /// Ctrl-C while `import -` waits on a pipe that has gone quiet (a person typing, a slow export) stops it at once
    /// and says what is in. Before, the stop was seen only once the next batch of 10,000 rows was ready.
    @Test func anInterruptWhileThePipeIsQuietStopsTheImportAtOnce() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("p.sqlite")
        let fifo = folder.file("rows")
        // The shell holds the pipe open after two rows; it gives up on the import after 10 s, closing the pipe. It
        // interrupts once the store exists (the handler is installed right after) and half a second more.
        let interrupting = [
            "/bin/sh", "-c",
            #"mkfifo "$FIFO"; "$0" "$@" <"$FIFO" & pid=$!; exec 3>"$FIFO"; printf 'name,email\nAnn,ann@example.com\n' >&3; "#
                + #"until [ -e "$STORE" ]; do sleep 0.05; done; sleep 0.5; kill -INT $pid; i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; "#
                + #"i=$((i + 1)); done; exec 3>&-; wait $pid"#,
        ]
        let started = ContinuousClock.now
        let result = try ProspectsProcess.run(
            ["import", "--format", "csv", "--store", store, "-"], environment: ["FIFO": fifo, "STORE": store],
            launcher: interrupting)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("stdin: interrupted; nothing was imported"), "\(result.stderr)")
        #expect(ContinuousClock.now - started < .seconds(8), "the stop waited for the pipe to close")
    }

    /// Ctrl-C during an ingest commits what is decoded, prints the summary and says how to finish; it died in
    /// silence before. The same command then loads the rest, the files already in counting as duplicates.
    @Test func anInterruptedIngestSaysWhatIsInAndHowToFinish() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("p.sqlite")
        let cards = folder.file("cards")
        try FileManager.default.createDirectory(atPath: cards, withIntermediateDirectories: false)
        for index in 0..<1_500 {
            let png = PNGFixtures.contactCode("Person \(index)\np\(index)@example.com", moduleSize: 8)
            try Data(png).write(to: URL(fileURLWithPath: cards + "/card-\(index).png"))
        }
        // Interrupted once the first batch of files is in.
        let interrupting = [
            "/bin/sh", "-c",
            #""$0" "$@" & pid=$!; until ! kill -0 $pid 2>/dev/null || [ "$(sqlite3 "$STORE" 'SELECT count(*) FROM prospects' 2>/dev/null)" -gt 0 ] "#
                + #"2>/dev/null; do sleep 0.02; done; kill -INT $pid; wait $pid"#,
        ]
        let result = try ProspectsProcess.run(
            ["ingest", "--jobs", "1", "--store", store, cards], environment: ["STORE": store], launcher: interrupting)
        #expect(result.status == 130, "\(result.stderr)")
        let match = try #require(
            result.lines.last?.wholeMatch(of: #/(\d+) files: (\d+) inserted, 0 duplicates, 0 rejected/#))
        let done = try #require(Int(match.1))
        #expect(Int(match.2) == done && done < 1_500)
        #expect(
            result.stderr.contains(
                "interrupted after \(done) of 1500 files: the files reported are in the store, the rest are not"),
            "\(result.stderr)")
        #expect(try OutputSafetyTests.sqlite3(store, "SELECT count(*) FROM prospects") == "\(done)\n")
        let rest = try ProspectsProcess.run(["ingest", "--store", store, cards])
        #expect(rest.output == "1500 files: \(1_500 - done) inserted, \(done) duplicates, 0 rejected\n")
    }

    /// A folder whose only image has a name that is not UTF-8: the file is named as one that cannot be opened (66),
    /// and the folder is not said to hold no image, as it was.
    @Test func aFolderWhoseImageNameIsNotUTF8IsNotCalledEmpty() throws {
        let folder = try TemporaryDirectory()
        let drop = folder.file("drop")
        try FileManager.default.createDirectory(atPath: drop, withIntermediateDirectories: false)
        let name = (Array((drop + "/caf").utf8) + [0xE9] + Array(".png".utf8) + [0]).map { CChar(bitPattern: $0) }
        let fd = name.withUnsafeBufferPointer { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        close(fd)
        let result = try ProspectsProcess.run(["decode", drop])
        #expect(result.status == 66)
        #expect(result.stderr.contains("the file name is not valid UTF-8"), "\(result.stderr)")
        #expect(!result.stderr.contains("no pictures in"), "\(result.stderr)")
    }

    /// `decode -` and `ingest -` read the picture from stdin (a pipe here), named `stdin` as `import -` does.
    @Test func decodeAndIngestReadAPictureFromStdin() throws {
        let folder = try TemporaryDirectory()
        let png = Data(PNGFixtures.contactCode("Ann Lee\nann@example.com"))
        let decoded = try ProspectsProcess.run(["decode", "--json", "-"], stdin: png)
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.output.contains(#""file":"stdin""#) && decoded.output.contains("ann@example.com"))
        let store = folder.file("p.sqlite")
        let ingested = try ProspectsProcess.run(["ingest", "--store", store, "-"], stdin: png)
        #expect(ingested.output == "1 file: 1 inserted, 0 duplicates, 0 rejected\n", "\(ingested.stderr)")
        let shown = try ProspectsProcess.run(["show", "--store", store, "ann@example.com"])
        #expect(shown.lines.contains { $0.hasPrefix("first source") && $0.hasSuffix("stdin") }, "\(shown.output)")
        let garbage = try ProspectsProcess.run(["decode", "-"], stdin: Data("not a picture".utf8))
        #expect(garbage.status == 65 && garbage.stderr.contains("stdin: "), "\(garbage.stderr)")
    }

    /// `--from-line` past the last row imports nothing, and says so rather than leave "0 rows" unexplained.
    @Test func fromLinePastTheEndSaysThereIsNothingToImport() throws {
        let folder = try TemporaryDirectory()
        let list = folder.file("list.csv")
        try Data("name,email\nAnn,ann@example.com\n".utf8).write(to: URL(fileURLWithPath: list))
        let result = try ProspectsProcess.run(
            ["import", "--format", "csv", "--store", folder.file("p.sqlite"), "--from-line", "99", list])
        #expect(result.status == 0 && result.output == "0 rows: 0 inserted, 0 duplicates, 0 rejected\n")
        #expect(result.stderr.contains("list.csv: no row starts at or after line 99; nothing to import"))
    }

    /// A store whose disk gives out is an I/O failure (74) naming the store, not an internal error (70). Here a file
    /// size limit makes SQLite's writes fail as a full or failing disk would.
    @Test func aStoreThatCannotWriteIsAnIOError() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("p.sqlite")
        let list = try folder.contactList(20_000)
        // SIGXFSZ ignored, so that the write fails (EFBIG) instead of killing the process; 512 blocks of 512 bytes.
        let limited = ["/bin/sh", "-c", #"trap '' XFSZ; ulimit -f 512; exec "$0" "$@""#]
        let result = try ProspectsProcess.run(["import", "--format", "csv", "--store", store, list], launcher: limited)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(
            result.stderr.contains("the prospect store could not write: \(store): the disk failed"), "\(result.stderr)")
    }

    /// A number out of range says which range.
    @Test func anOutOfRangeNumberSaysWhatIsExpected() throws {
        let folder = try TemporaryDirectory()
        let encode = try ProspectsProcess.run([
            "encode", "--name", "Ada", "--email", "ada@example.org", "--module-size", "1000", "-o",
            folder.file("a.png"),
        ])
        #expect(encode.status == 64)
        #expect(
            encode.stderr.contains("invalid value '1000' for '--module-size': expected a whole number from 1 to 64"),
            "\(encode.stderr)")
        let watch = try ProspectsProcess.run(["watch", "--workers", "65", folder.path])
        #expect(watch.status == 64 && watch.stderr.contains("expected a whole number from 1 to 64"), "\(watch.stderr)")
        let decode = try ProspectsProcess.run(["decode", "--pixel-limit", "0", folder.path])
        #expect(decode.status == 64 && decode.stderr.contains("expected a whole number from 1 up"), "\(decode.stderr)")
    }

    /// Only `ingest`, `import` and `watch` make a store: anywhere else a missing file is a mistyped path (69,
    /// named), and no empty store appears in its place.
    @Test func aCommandThatOnlyReadsOrChangesTheListNeverCreatesAStore() throws {
        let folder = try TemporaryDirectory()
        let typo = folder.file("prospect.sqlite")
        for command in [
            ["list"], ["show", "1"], ["due"], ["export", "--format", "csv"], ["mark", "--contacted", "1"],
        ] {
            let result = try ProspectsProcess.run(command + ["--store", typo])
            #expect(result.status == 69, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("there is no store at \(typo)"), "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aMissingPathExits66AndTheOtherFilesStillDecode() throws {
        let paul = ProspectsProcess.sampleImages().appendingPathComponent("01-paul-hudson.png").path
        let result = try ProspectsProcess.run(["decode", "/nonexistent/x.png", paul])
        #expect(result.status == 66)
        #expect(result.stderr.contains("/nonexistent/x.png: cannot read the file"))
        #expect(result.output.contains("Paul Hudson"))
        // ingest's summary counts it too, where people look for what went wrong.
        let folder = try TemporaryDirectory()
        let store = folder.file("p.sqlite")
        let ingested = try ProspectsProcess.run(["ingest", "--store", store, "/nonexistent/x.png", paul])
        #expect(ingested.status == 66)
        #expect(ingested.output == "1 file: 1 inserted, 0 duplicates, 0 rejected; 1 path not found\n")
        let json = try ProspectsProcess.run(["ingest", "--json", "--store", store, "/nonexistent/x.png", paul])
        #expect(json.lines.last?.hasSuffix(#""rejectedCodes":0,"notFound":1}"#) == true, "\(json.output)")
    }

    @Test func jobsTakesAThreadCountAndKeepsTheOutputOrder() throws {
        let folder = ProspectsProcess.sampleImages().path
        for bad in ["0", "-1", "two", "257", ""] {
            for command in ["decode", "ingest"] {
                let result = try ProspectsProcess.run([command, "--jobs", bad, folder])
                #expect(result.status == 64, "\(command) --jobs '\(bad)'")
                #expect(result.stderr.contains("invalid value '\(bad)' for '--jobs'"), "\(command) --jobs '\(bad)'")
            }
        }
        #expect(try ProspectsProcess.run(["decode", "--jobs"]).status == 64)
        let one = try ProspectsProcess.run(["decode", "--json", "--jobs", "1", folder])
        for jobs in ["--jobs=2", "--jobs=3"] {
            let many = try ProspectsProcess.run(["decode", "--json", jobs, folder])
            #expect(many.status == one.status && many.output == one.output && !one.output.isEmpty, "\(jobs)")
        }
    }

    @Test func anUnavailableStoreExits69() throws {
        let result = try ProspectsProcess.run(["list", "--store", "/nonexistent-folder/prospects.sqlite"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("unavailable"))

        // A file that is no database, given as the store by mistake: 69 too, naming it, and left as it was.
        let folder = try TemporaryDirectory()
        let list = folder.file("list.csv")
        try Data("name,email\n".utf8).write(to: URL(fileURLWithPath: list))
        let wrong = try ProspectsProcess.run(["list", "--store", list])
        #expect(wrong.status == 69)
        #expect(wrong.stderr.contains("cannot open \(list) as a prospect store: file is not a database"))
        #expect(try String(contentsOfFile: list, encoding: .utf8) == "name,email\n")
    }
}
