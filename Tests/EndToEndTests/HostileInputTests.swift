import Foundation
import Glibc
import ProspectsTestSupport
import QRDecoding
import Testing

/// Hostile files and payloads through the built binary: each bad file gets a typed error and the run goes on;
/// nothing a code or a file name carries reaches the terminal raw.
@Suite struct HostileInputTests {
    static let paul = "Paul Hudson\npaul@hackingwithswift.com"

    /// A PNG of one code carrying exactly `bytes`, drawn by libqrencode and written by our PNG writer.
    static func code(_ bytes: [UInt8]) throws -> [UInt8] {
        try PNGWriter.encode(QRCodeImage.make(bytes: bytes, moduleSize: 4))
    }

    static func code(_ text: String) throws -> [UInt8] { try code(Array(text.utf8)) }

    /// The gray image of a code, for re-encoding in other PNG flavours.
    static func image(_ text: String) throws -> GrayImage {
        try QRCodeImage.make(bytes: Array(text.utf8), moduleSize: 4)
    }

    /// An 8-bit palette PNG with a gAMA chunk whose light entry is white at partial alpha (tRNS 128), the dark
    /// one black and opaque: correct only when libpng composites onto white.
    static func palettePartialAlpha(_ text: String) throws -> [UInt8] {
        var png = PNGFixtures.encode(try image(text), as: .palette(bitDepth: 8, transparency: true), gamma: true)
        try rewriteChunk("PLTE", in: &png, with: [0, 0, 0, 255, 255, 255])
        try rewriteChunk("tRNS", in: &png, with: [255, 128])
        return png
    }

    /// Replaces the data of chunk `type` (same length) and its CRC.
    static func rewriteChunk(_ type: String, in png: inout [UInt8], with data: [UInt8]) throws {
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if png[offset + 4..<offset + 8].elementsEqual(type.utf8) {
                try #require(length == data.count)
                png.replaceSubrange(offset + 8..<offset + 8 + length, with: data)
                let crc = crc32(Array(png[offset + 4..<offset + 8 + length]))
                png.replaceSubrange(
                    offset + 8 + length..<offset + 12 + length,
                    with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (24 - 8 * $0)) })
                return
            }
            offset += 12 + length
        }
        Issue.record("no \(type) chunk")
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// How to run the binary as a user who cannot read a mode-000 file: as is when not root; as `nobody` through
    /// `setpriv` when root and that works; else nil and the reason.
    static func unprivileged() -> (launcher: [String]?, reason: String) {
        guard geteuid() == 0 else { return ([], "not root") }
        let launcher = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        guard FileManager.default.isExecutableFile(atPath: launcher[0]) else { return (nil, "no /usr/bin/setpriv") }
        do {
            let probe = try ProspectsProcess.run(["--version"], launcher: launcher)
            guard probe.status == 0 else {
                return (nil, "the binary does not run as nobody (status \(probe.status)): \(probe.stderr.prefix(200))")
            }
        } catch {
            return (nil, "setpriv failed: \(error)")
        }
        return (launcher, "dropped root to nobody with setpriv")
    }

    /// No byte a terminal would act on: ESC, BEL, NUL (any C0 but LF), DEL, C1 controls, U+202E, invalid UTF-8.
    static func expectTerminalSafe(_ bytes: Data, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            Issue.record("\(what) is not valid UTF-8", sourceLocation: sourceLocation)
            return
        }
        let bad = text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                || (0x200B...0x200F).contains(scalar.value)
        }
        #expect(
            bad.isEmpty, "\(what) holds \(bad.map { String($0.value, radix: 16) })", sourceLocation: sourceLocation)
    }

    static func jsonObjects(_ result: ProspectsProcess.Result) throws -> [[String: Any]] {
        try result.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// file name → error kind, or "prospect:<name>" for each code of a `decode --json` run.
    static func outcomes(_ result: ProspectsProcess.Result) throws -> [String: String] {
        var byFile: [String: String] = [:]
        for object in try jsonObjects(result) {
            guard let file = object["file"] as? String else { continue }
            let name = URL(fileURLWithPath: file).lastPathComponent
            if let error = object["error"] as? [String: Any] {
                byFile[name] = error["kind"] as? String ?? "?"
            } else if let prospect = object["prospect"] as? [String: Any] {
                byFile[name] = "prospect:\(prospect["name"] as? String ?? "?")"
            }
        }
        return byFile
    }

    // MARK: - Bad files

    /// Every kind of bad file in one folder, one `decode` and one `ingest` over it: each file gets its typed error,
    /// the good ones among them still decode, and the last file is reached.
    @Test func badFilesInOneFolderEachGetATypedErrorAndTheRunGoesOn() throws {
        let root = try TemporaryDirectory(prefix: "prospects-hostile")
        chmod(root.path, 0o755)  // mkdtemp makes it 0700; the unprivileged child must reach it
        let drop = root.file("drop")
        let outside = root.file("outside")
        let storeFolder = root.file("store")
        for folder in [drop, outside, storeFolder] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        }
        chmod(storeFolder, 0o777)
        func write(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: drop + "/" + name))
        }

        let good = try Self.code(Self.paul)
        try write("01-zero-bytes.png", [])
        try write("02-text-renamed.png", Array("Paul Hudson, paul@hackingwithswift.com\n".utf8))
        try write("03-truncated.png", Array(good.prefix(good.count / 2)))
        try write("04-bad-crc.png", PNGFixtures.corruptingIDATChecksum(good))
        try write("05-huge-dimensions.png", PNGFixtures.hugeDimensionsHeader(width: 30_000, height: 30_000))
        try write(
            "06-rgba-16bit.png",
            PNGFixtures.encode(try Self.image("Ada Lovelace\nada@example.org"), as: .rgba(bitDepth: 16)))
        try write("07-palette-partial-alpha-gama.png", try Self.palettePartialAlpha("Zoë Müller\nzoe@example.de"))
        try write(
            "08-interlaced.png",
            PNGFixtures.encode(
                try Self.image("Grace Hopper\ngrace@example.mil"), as: .rgb(bitDepth: 8), interlaced: true))
        try write(
            "09-trailing-garbage.png",
            try Self.code("Linus Torvalds\nlinus@example.org") + Array("GIF89a and the rest of another file".utf8))
        #expect(mkfifo(drop + "/10-fifo.png", 0o666) == 0)
        chmod(drop + "/10-fifo.png", 0o666)  // past the umask: the unprivileged child may open it, and must not hang
        try FileManager.default.createDirectory(atPath: drop + "/11-directory.png", withIntermediateDirectories: false)
        // As root the run drops to nobody, for whom a mode-000 file is unreadable; without that it fails, saying why.
        let (unprivileged, reason) = Self.unprivileged()
        let launcher = try #require(unprivileged, "cannot run the binary as a user who is refused the file: \(reason)")
        try write("12-unreadable.png", try Self.code("Eve Locked\neve@example.com"))
        chmod(drop + "/12-unreadable.png", 0)
        try Data(try Self.code("Mallory Outside\nmallory@example.com")).write(
            to: URL(fileURLWithPath: outside + "/secret.png"))
        #expect(symlink(outside + "/secret.png", drop + "/13-symlink.png") == 0)
        try write("14-paul.png", good)

        let expected: [String: String] = [
            "01-zero-bytes.png": "unreadableImage", "02-text-renamed.png": "unreadableImage",
            "03-truncated.png": "unreadableImage", "04-bad-crc.png": "unreadableImage",
            "05-huge-dimensions.png": "imageTooLarge", "06-rgba-16bit.png": "prospect:Ada Lovelace",
            "07-palette-partial-alpha-gama.png": "prospect:Zoë Müller", "08-interlaced.png": "prospect:Grace Hopper",
            "09-trailing-garbage.png": "prospect:Linus Torvalds", "10-fifo.png": "notARegularFile",
            "12-unreadable.png": "unreadableFile", "13-symlink.png": "notARegularFile",
            "14-paul.png": "prospect:Paul Hudson",
        ]
        // A file there but unreadable is 66, like a missing one, over 65 for the rejected images.
        let status: Int32 = 66

        let started = Date()
        let decoded = try ProspectsProcess.run(["decode", "--json", drop], launcher: launcher)
        #expect(Date().timeIntervalSince(started) < 30, "the FIFO must not hang the run")
        #expect(decoded.status == status)
        #expect(try Self.outcomes(decoded) == expected)
        #expect(decoded.lines.last?.contains("14-paul.png") == true, "the run reaches the last file")
        #expect(!decoded.output.contains("Mallory"), "a walk never follows a link out of the folder")

        // The same run for a person: one line per bad file on stderr, with the reason.
        let human = try ProspectsProcess.run(["decode", drop], launcher: launcher)
        #expect(human.status == status)
        #expect(
            human.stderr.contains(
                "05-huge-dimensions.png: a 30,000 × 30,000 picture (900 MP) is over the 50 MP limit; "
                    + "--pixel-limit 900000000 reads it"))
        #expect(human.stderr.contains("10-fifo.png: not a regular file (a FIFO)"))
        #expect(human.stderr.contains("13-symlink.png: not a regular file (a symbolic link, not followed)"))
        #expect(human.stderr.contains("12-unreadable.png: cannot read the file: Permission denied"))
        #expect(human.output.hasSuffix("14-paul.png: Paul Hudson <paul@hackingwithswift.com>\n"))

        // ingest: the same files, the good ones stored, the walk following no link.
        let store = storeFolder + "/prospects.sqlite"
        let ingested = try ProspectsProcess.run(["ingest", "--json", "--store", store, drop], launcher: launcher)
        #expect(ingested.status == status)
        let summary = try #require(try Self.jsonObjects(ingested).last)
        let rejected = expected.values.filter { !$0.hasPrefix("prospect:") }.count
        #expect(summary["files"] as? Int == expected.count, "\(summary)")
        #expect(summary["inserted"] as? Int == 5, "\(summary)")
        #expect(summary["rejected"] as? Int == rejected, "\(summary)")
        let listed = try ProspectsProcess.run(["list", "--json", "--store", store], launcher: launcher)
        #expect(listed.lines.count == 5)
        #expect(!listed.output.contains("mallory@"))
    }

    /// A symlink named on the command line is followed: the user asked for that file.
    @Test func aSymlinkNamedExplicitlyIsFollowedByDecode() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-hostile")
        try Data(try Self.code(Self.paul)).write(to: URL(fileURLWithPath: folder.file("target.png")))
        #expect(symlink(folder.file("target.png"), folder.file("link.png")) == 0)
        let result = try ProspectsProcess.run(["decode", folder.file("link.png")])
        #expect(result.status == 0)
        #expect(result.output.contains("link.png: Paul Hudson <paul@hackingwithswift.com>"))
    }

    /// A 60-byte file claiming 30000 × 30000 (or 65535 × 65535) pixels is refused at once, with no large allocation:
    /// the child's peak RSS stays within a few MB of decoding a small picture.
    @Test(arguments: [30_000, 65_535])
    func hugeDeclaredDimensionsAreRefusedQuicklyWithoutAllocating(_ side: Int) throws {
        let folder = try TemporaryDirectory(prefix: "prospects-hostile")
        let bomb = folder.file("bomb.png")
        let small = folder.file("small.png")
        try Data(PNGFixtures.hugeDimensionsHeader(width: UInt32(side), height: UInt32(side))).write(
            to: URL(fileURLWithPath: bomb))
        try Data(try Self.code(Self.paul)).write(to: URL(fileURLWithPath: small))
        let time = ["/usr/bin/time", "-f", "peak-rss-kb=%M"]
        try #require(
            FileManager.default.isExecutableFile(atPath: time[0]),
            "needs GNU time (/usr/bin/time) to measure peak RSS: Scripts/install-dependencies --test installs it")
        func peakKB(_ result: ProspectsProcess.Result) throws -> Int {
            let line = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("peak-rss-kb=") })
            return try #require(Int(line.dropFirst("peak-rss-kb=".count)))
        }
        let baseline = try ProspectsProcess.run(["decode", small], launcher: time)
        #expect(baseline.status == 0)
        let started = Date()
        let refused = try ProspectsProcess.run(["decode", "--json", bomb], launcher: time)
        let seconds = Date().timeIntervalSince(started)
        #expect(refused.status == 65)
        #expect(refused.output.contains(#""kind":"imageTooLarge""#))
        // Decoding would take 15 s and 3.5 GB; the peak RSS below is the exact check, this one a loose one.
        #expect(seconds < 5, "refusing took \(seconds) s")
        let (bombKB, baselineKB) = (try peakKB(refused), try peakKB(baseline))
        // The image would need \(side * side / 1_000_000) MB; the refusal costs nothing beyond a normal run.
        #expect(bombKB < baselineKB + 16 * 1024, "peak RSS \(bombKB) KB refusing, \(baselineKB) KB on a small picture")
    }

    // MARK: - Bad payloads

    /// Codes built to attack a terminal or a reader's eye: each is refused with the right kind, or shown escaped,
    /// and neither stdout nor stderr of `decode` (human or JSON) carries a raw control, bidi or invisible scalar.
    @Test func hostilePayloadsAreRefusedOrEscapedAndNeverReachTheTerminalRaw() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-hostile")
        let cases: [(file: String, bytes: [UInt8], kinds: Set<String>)] = [
            ("nul.png", Array("Paul\u{0}Hudson\npaul@example.com".utf8), ["unsafeCharacters"]),
            (
                "osc0-title.png", Array("\u{1B}]0;you have been pwned\u{7}Paul\npaul@example.com".utf8),
                ["unsafeCharacters"]
            ),
            (
                "osc52-clipboard.png",
                Array("Paul\n\u{1B}]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u{7}p@example.com".utf8),
                ["unsafeCharacters", "invalidEmail"]
            ),
            ("csi-clear.png", Array("\u{1B}[2J\u{1B}[31mPaul\npaul@example.com".utf8), ["unsafeCharacters"]),
            ("c1-csi.png", Array("Paul\u{9B}31m\npaul@example.com".utf8), ["unsafeCharacters"]),
            ("bidi-override.png", Array("Paul \u{202E}nosduH\npaul@example.com".utf8), ["unsafeCharacters"]),
            ("bidi-isolate.png", Array("Paul \u{2067}Hudson\u{2069}\npaul@example.com".utf8), ["unsafeCharacters"]),
            ("zero-width.png", Array("Pa\u{200B}ul\npaul@example.com".utf8), ["unsafeCharacters"]),
            (
                "zero-width-email.png", Array("Paul\npa\u{200D}ul@example.com".utf8),
                ["unsafeCharacters", "invalidEmail"]
            ),
            (
                "vcard-escape.png",
                Array("BEGIN:VCARD\r\nFN:\u{1B}]0;x\u{7}Eve\r\nEMAIL:eve@example.com\r\nEND:VCARD\r\n".utf8),
                ["unsafeCharacters"]
            ),
            // Not UTF-8 but valid Latin-1 (QR's default byte charset), where 0x9B is the C1 control CSI: refused.
            (
                "latin1-c1-csi.png", Array("Paul".utf8) + [0x9B] + Array("31m\npaul@example.com".utf8),
                ["unsafeCharacters"]
            ),
            ("url-escape.png", Array("https://\u{1B}]0;x\u{7}evil.example/path".utf8), ["unsupportedPayload"]),
            (
                "over-limit.png", Array("Paul\n".utf8) + Array(repeating: UInt8(ascii: "x"), count: 2_200),
                ["payloadTooLong"]
            ),
        ]
        for (file, bytes, _) in cases {
            try Data(try Self.code(bytes)).write(to: URL(fileURLWithPath: folder.file(file)))
        }
        // The most a QR code holds, 2,953 bytes (error correction L): refused as too long, quoting nothing.
        let largest =
            Array("Paul\n\u{1B}]0;".utf8) + Array(repeating: UInt8(ascii: "A"), count: LargestCode.capacity - 9)
        try Data(LargestCode.png(bytes: largest)).write(to: URL(fileURLWithPath: folder.file("largest-2953.png")))
        // Not UTF-8 at all: read as Latin-1, QR's default byte charset (see `PayloadText`), and only printable.
        let notUTF8 = Array("Pa".utf8) + [0xC3, 0x28, 0xFF] + Array("\nlatin@example.com".utf8)
        try Data(try Self.code(notUTF8)).write(to: URL(fileURLWithPath: folder.file("invalid-utf8.png")))
        // Homoglyphs only (Cyrillic Р, а, Н, о): letters, not controls; accepted and shown as written.
        let homoglyph = "Раul Нudsоn"
        try Data(try Self.code("\(homoglyph)\nhomoglyph@example.com")).write(
            to: URL(fileURLWithPath: folder.file("homoglyph.png")))
        // The file name is input too.
        try Data(try Self.code(Self.paul)).write(
            to: URL(fileURLWithPath: folder.file("name-\u{1B}]0;pwned\u{7}-\u{202E}gnp.png")))

        let json = try ProspectsProcess.run(["decode", "--json", folder.path])
        #expect(json.status == 65)
        Self.expectTerminalSafe(json.stdout, "decode --json stdout")
        Self.expectTerminalSafe(Data(json.stderr.utf8), "decode --json stderr")
        let outcomes = try Self.outcomes(json)
        for (file, bytes, kinds) in cases {
            #expect(kinds.contains(outcomes[file] ?? "none"), "\(file): \(outcomes[file] ?? "no outcome")")
            // JSON escapes, it does not drop: the exact text is still there for a program to read.
            if let text = String(validating: bytes, as: UTF8.self) {
                let object = try Self.jsonObjects(json).first { ($0["file"] as? String)?.hasSuffix("/" + file) == true }
                #expect(object?["text"] as? String == text, "\(file): the JSON text is the payload")
            }
        }
        #expect(outcomes["largest-2953.png"] == "payloadTooLong")
        #expect(outcomes["homoglyph.png"] == "prospect:\(homoglyph)")
        #expect(outcomes["invalid-utf8.png"] == "prospect:PaÃ(ÿ")
        #expect(outcomes.keys.contains { $0.hasPrefix("name-") })

        let human = try ProspectsProcess.run(["decode", folder.path])
        #expect(human.status == 65)
        Self.expectTerminalSafe(human.stdout, "decode stdout")
        Self.expectTerminalSafe(Data(human.stderr.utf8), "decode stderr")
        #expect(human.output.contains("name-\\u{1B}]0;pwned\\u{7}-\\u{202E}gnp.png: Paul Hudson"))
        #expect(human.stderr.contains("nul.png: the name contains an unsafe character (U+0000 NULL)"))
        #expect(human.output.contains("homoglyph.png: \(homoglyph) <homoglyph@example.com>"))
        #expect(!human.stderr.contains("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), "a long payload is not quoted")

        // ingest names the rejected files, escaped, and stores only the three good codes.
        let store = folder.file("prospects.sqlite")
        let ingested = try ProspectsProcess.run(["ingest", "--store", store, folder.path])
        #expect(ingested.status == 65)
        Self.expectTerminalSafe(ingested.stdout, "ingest stdout")
        Self.expectTerminalSafe(Data(ingested.stderr.utf8), "ingest stderr")
        let listed = try ProspectsProcess.run(["list", "--json", "--store", store])
        #expect(listed.lines.count == 3)
    }

    /// `decode --raw` writes the payload's exact bytes into a pipe (that is its point), but escapes them when
    /// stdout is a terminal.
    @Test func rawOutputIsExactInAPipeAndEscapedOnATerminal() throws {
        let folder = try TemporaryDirectory(prefix: "prospects-hostile")
        let payload = "\u{1B}]0;pwned\u{7}Paul\npaul@example.com"
        let file = folder.file("osc.png")
        try Data(try Self.code(payload)).write(to: URL(fileURLWithPath: file))

        let piped = try ProspectsProcess.run(["decode", "--raw", file])
        #expect(piped.stdout == Data((payload + "\n").utf8))

        // script(1) runs the command on a pseudo-terminal and copies what it printed to its own stdout.
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/script"),
            "needs script(1) (/usr/bin/script, Debian's bsdutils) to run the command on a terminal")
        // sh gets the binary's path as $0 (the launcher puts it first) and hands script(1) the whole command.
        let command = #"exec /usr/bin/script -qec "$0 decode --raw '"# + file + #"'" /dev/null"#
        let onTerminal = try ProspectsProcess.run([], launcher: ["/bin/sh", "-c", command])
        let shown = String(decoding: onTerminal.stdout, as: UTF8.self)
        #expect(shown.contains(#"\u{1B}]0;pwned\u{7}Paul"#), "\(shown)")
        #expect(!onTerminal.stdout.contains(0x1B) && !onTerminal.stdout.contains(0x07))
    }
}
