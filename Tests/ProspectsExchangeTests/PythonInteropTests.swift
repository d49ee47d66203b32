import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsTestSupport
import Testing

/// Our exports read by independent parsers: Python's `vobject` for vCards and its `csv` module for CSV.
///
/// These tests fail, never skip, when `/usr/bin/python3` or its `vobject` is missing; `Scripts/install-dependencies
/// --test` installs both (Debian's `python3-vobject`).
@Suite struct PythonInteropTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    static let prospects =
        Fixtures.awkward + [
            Fixtures.stored(8, "Zoë Müller-" + String(repeating: "é", count: 60), "zoe2@example.de")
        ]

    @Test func vobjectReadsOurVCards() throws {
        let exporter = ProspectExporter(format: .vcard)
        let path = try folder.write("cards.vcf", Self.prospects.map(exporter.record).joined())
        let script = """
            import json, sys
            try:
                import vobject
            except ImportError:
                sys.stderr.write("the Python module vobject is missing: run Scripts/install-dependencies --test\\n")
                sys.exit(3)
            cards = []
            with open(sys.argv[1], encoding="utf-8", newline="") as f:
                for card in vobject.readComponents(f.read()):
                    n = card.n.value
                    cards.append({
                        "fn": card.fn.value, "family": n.family, "given": n.given, "email": card.email.value,
                        "org": card.org.value if hasattr(card, "org") else None,
                        "tel": card.tel.value if hasattr(card, "tel") else None,
                        "uid": card.uid.value, "version": card.version.value,
                    })
            print(json.dumps(cards))
            """
        let cards = try #require(try runPython(script, path) as? [[String: Any]])
        #expect(cards.count == Self.prospects.count)
        for (card, stored) in zip(cards, Self.prospects) {
            #expect(card["version"] as? String == "4.0")
            #expect(card["fn"] as? String == stored.prospect.name)
            #expect(card["email"] as? String == stored.prospect.email)
            #expect(card["tel"] as? String == stored.prospect.phone)
            #expect((card["org"] as? [String])?.joined(separator: ";") == stored.prospect.organization)
            // "Family, Given" when the name has one comma between two parts, else the last of several words.
            let name = stored.prospect.name
            let parts = name.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let words = name.split(separator: " ")
            let family =
                parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
                ? parts[0] : words.count > 1 ? String(words.last!) : ""
            #expect(card["family"] as? String == family)
            #expect((card["uid"] as? String)?.hasPrefix("urn:uuid:") == true)
        }
    }

    @Test func pythonCSVReadsOurCSV() throws {
        let exporter = ProspectExporter(format: .csv)
        let path = try folder.write("list.csv", exporter.header() + Self.prospects.map(exporter.record).joined())
        let script = """
            import csv, json, sys
            with open(sys.argv[1], encoding="utf-8", newline="") as f:
                print(json.dumps(list(csv.reader(f))))
            """
        let rows = try #require(try runPython(script, path) as? [[String]])
        #expect(rows.first == ProspectExporter.csvColumns)
        #expect(rows.count == Self.prospects.count + 1)
        for (row, stored) in zip(rows.dropFirst(), Self.prospects) {
            #expect(row.count == ProspectExporter.csvColumns.count)
            #expect(row[0] == String(stored.id))
            #expect(row[1] == Self.guarded(stored.prospect.name))
            #expect(row[2] == Self.guarded(stored.prospect.email))
            #expect(row[3] == Self.guarded(stored.prospect.phone ?? ""))
            #expect(row[4] == Self.guarded(stored.prospect.organization ?? ""))
            #expect(row[5] == (stored.isContacted ? "true" : "false"))
            #expect(row[8] == String(stored.scanCount))
        }
        #expect(rows[6][1] == "'=SUM(A1)")
        #expect(rows[6][3] == "'-1")
        // A phone number is left as it is: it holds nothing a spreadsheet could run.
        #expect(rows[1][3] == "+1 555 0100")
    }

    /// What a spreadsheet cell should hold: the value, with `'` before a formula-starting character, unless it is a
    /// phone number (`+`, then at least six digits, spaces and `()-./`, ending with a digit).
    static func guarded(_ value: String) -> String {
        guard let first = value.first, "=+-@\t\r".contains(first) else { return value }
        let rest = value.dropFirst()
        let isPhone =
            first == "+" && rest.allSatisfy { $0.isASCII && ($0.isNumber || " ()-./".contains($0)) }
            && rest.filter(\.isNumber).count >= 6 && value.last?.isNumber == true
        return isPhone ? value : "'" + value
    }

    /// Runs `python3 -c script argument` and decodes its stdout as JSON.
    func runPython(_ script: String, _ argument: String) throws -> Any {
        try JSONSerialization.jsonObject(with: PythonScript.run(script, argument))
    }
}
