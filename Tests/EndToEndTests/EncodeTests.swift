import Foundation
import ProspectsTestSupport
import Testing

/// One's own card: what `encode` writes, `decode` and zbarimg read back byte-exact, in every format.
@Suite struct EncodeTests {
    static let cards: [(name: String, email: String)] = [
        ("Paul Hudson", "paul@hackingwithswift.com"),
        ("Zoë Müller", "zoe.muller@example.com"),
        ("李小龙", "li.xiaolong@example.cn"),
        ("Ελένη Παπαδοπούλου", "eleni@παράδειγμα.ελ"),
    ]

    static let expectedText: [String: @Sendable (String, String) -> String] = [
        "lines": { "\($0)\n\($1)" },
        "mecard": { "MECARD:N:\($0);EMAIL:\($1);;" },
        "vcard": {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:\(structuredNames[$0]!)\r\nFN:\($0)\r\nEMAIL:\($1)\r\nEND:VCARD\r\n"
        },
    ]

    /// vCard 3.0's required N, family name first: the last word, unless the name is one word.
    static let structuredNames = [
        "Paul Hudson": "Hudson;Paul;;;", "Zoë Müller": "Müller;Zoë;;;", "李小龙": ";李小龙;;;",
        "Ελένη Παπαδοπούλου": "Παπαδοπούλου;Ελένη;;;",
    ]

    @Test(arguments: ["lines", "mecard", "vcard"])
    func encodedCardsDecodeByteExact(_ format: String) throws {
        let folder = try TemporaryDirectory()
        for (index, card) in Self.cards.enumerated() {
            let file = folder.file("card\(index).png")
            let encoded = try ProspectsProcess.run([
                "encode", "--name", card.name, "--email", card.email, "--format", format, "-o", file,
            ])
            #expect(encoded.status == 0, "\(encoded.stderr)")
            let text = Self.expectedText[format]!(card.name, card.email)

            let raw = try ProspectsProcess.run(["decode", "--raw", file])
            #expect(raw.stdout == Data((text + "\n").utf8), "\(format) \(card.name)")
            let json = try ProspectsProcess.run(["decode", "--json", file])
            let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
            let prospect = try #require(object["prospect"] as? [String: Any])
            #expect(prospect["name"] as? String == card.name)
            #expect(prospect["email"] as? String == card.email)

            // An independent reader: zbar's own tool, in binary mode so it does not guess a charset.
            let zbar = Process()
            zbar.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
            zbar.arguments = ["-q", "--nodbus", "-Sbinary", file]
            let pipe = Pipe()
            zbar.standardOutput = pipe
            try zbar.run()
            let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
            zbar.waitUntilExit()
            #expect(bytes == Data(text.utf8), "zbarimg -Sbinary on \(format) \(card.name)")
        }
    }

    @Test func phoneAndOrganisationTravelThroughTheCardIntoTheStore() throws {
        let folder = try TemporaryDirectory()
        let file = folder.file("me.png")
        let encoded = try ProspectsProcess.run([
            "encode", "--name", "Jürgen Müller", "--email", "juergen@example.de", "--phone", "+49 30 1234567",
            "--organization", "Müller GmbH", "--format", "vcard", "-o", file,
        ])
        #expect(encoded.status == 0)
        let store = folder.file("prospects.sqlite")
        #expect(try ProspectsProcess.run(["ingest", "--store", store, file]).status == 0)
        let show = try ProspectsProcess.run(["show", "--json", "--store", store, "juergen@example.de"])
        let object = try #require(try JSONSerialization.jsonObject(with: show.stdout) as? [String: Any])
        #expect(object["phone"] as? String == "+49 30 1234567")
        #expect(object["organization"] as? String == "Müller GmbH")
        let vcard = try ProspectsProcess.run(["export", "--format", "vcard", "--store", store]).output
        #expect(vcard.contains("TEL:+49 30 1234567\r\n") && vcard.contains("ORG:Müller GmbH\r\n"))

        // Without --format, a phone makes the card a MECARD; the two-line format, which has no room for it, is
        // refused rather than the phone dropped.
        let card = ["encode", "--name", "Ada", "--email", "ada@example.org", "--phone", "+44 20 7946 0000"]
        #expect(try ProspectsProcess.run(card + ["-o", file]).status == 0)
        let raw = try ProspectsProcess.run(["decode", "--raw", file]).output
        #expect(raw.hasPrefix("MECARD:N:Ada;TEL:+44 20 7946 0000;"), "\(raw)")
        let lines = try ProspectsProcess.run(card + ["--format", "lines", "-o", file])
        #expect(lines.status == 64 && lines.stderr.contains("--phone and --organization need --format mecard or vcard"))
    }

    @Test func anInvalidCardIsRefusedBeforeAnythingIsWritten() throws {
        let folder = try TemporaryDirectory()
        let result = try ProspectsProcess.run([
            "encode", "--name", "X", "--email", "not-an-address", "-o", folder.file("x.png"),
        ])
        #expect(result.status == 64)
        #expect(result.stderr.contains("not a valid email address"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.png")))
    }
}
