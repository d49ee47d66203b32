import Foundation
import ProspectsTestSupport
import Testing

/// Issue 21 on the built binary: a lead a team can work (notes, rating, tags, edits, search, events, collectors).
@Suite struct LeadCommandsTests {
    /// A vCard 3.0 as an iPhone shares it: structured name, title, organisation, phone, two addresses and a note.
    static let appleseed = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        N:Appleseed;Johnny;Q.;Dr.;Jr.\r
        FN:Dr. Johnny Q. Appleseed Jr.\r
        TITLE:Head Grower\r
        ORG:Orchards Inc.\r
        TEL;TYPE=CELL:+1 555 0100\r
        EMAIL;TYPE=WORK:johnny@orchards.example\r
        EMAIL;TYPE=HOME:jq@home.example\r
        NOTE:Wants a demo of the cider press\r
        END:VCARD\r

        """

    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func show(_ who: String, store: String) throws -> [String: Any] {
        let shown = try ProspectsProcess.run(["show", "--json", "--store", store, who])
        #expect(shown.status == 0, "\(shown.stderr)")
        return try object(shown.output)
    }

    func names(_ arguments: [String], store: String) throws -> [String] {
        let listed = try ProspectsProcess.run(["list", "--json", "--store", store] + arguments)
        #expect(listed.status == 0, "\(listed.stderr)")
        return try listed.lines.map { try object($0)["name"] as? String ?? "" }
    }

    func importCSV(_ csv: String, store: String, in folder: TemporaryDirectory, _ extra: [String] = []) throws {
        let path = folder.file("list-\(UUID().uuidString).csv")
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        let imported = try ProspectsProcess.run(["import", "--format", "csv", "--store", store] + extra + [path])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    @Test func aVCardCodeIngestsWithTitleNoteByItsCollectorBothAddressesAndItsNameParts() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let picture = folder.file("appleseed.png")
        try Data(PNGFixtures.contactCode(Self.appleseed, moduleSize: 3)).write(to: URL(fileURLWithPath: picture))
        let ingested = try ProspectsProcess.run([
            "ingest", "--store", store, "--event", "KubeCon EU 2026", "--by", "ana", picture,
        ])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let lead = try show("johnny@orchards.example", store: store)
        #expect(lead["title"] as? String == "Head Grower")
        #expect(lead["organization"] as? String == "Orchards Inc.")
        #expect(lead["otherEmails"] as? [String] == ["jq@home.example"])
        let parts = try #require(lead["nameParts"] as? [String: String])
        #expect(
            parts == ["family": "Appleseed", "given": "Johnny", "additional": "Q.", "prefix": "Dr.", "suffix": "Jr."])
        let notes = try #require(lead["notes"] as? [[String: Any]])
        #expect(notes.count == 1)
        #expect(notes.first?["author"] as? String == "ana")
        #expect(notes.first?["text"] as? String == "Wants a demo of the cider press")
        #expect(lead["events"] as? [String] == ["KubeCon EU 2026"])
        #expect(lead["collectors"] as? [String] == ["ana"])
        // `show` by a search that names one lead finds the same one.
        #expect(try show("appleseed", store: store)["id"] as? Int == lead["id"] as? Int)

        let exported = try ProspectsProcess.run(["export", "--format", "vcard", "--store", store])
        #expect(exported.status == 0, "\(exported.stderr)")
        let card = folder.file("export.vcf")
        try exported.stdout.write(to: URL(fileURLWithPath: card))
        let parsed = try PythonScript.run(
            """
            import sys, vobject
            card = next(vobject.readComponents(open(sys.argv[1]).read()))
            n = card.n.value
            print("/".join([n.family, n.given, n.additional, n.prefix, n.suffix]))
            """, card)
        #expect(String(decoding: parsed, as: UTF8.self) == "Appleseed/Johnny/Q./Dr./Jr.\n")
    }

    @Test(arguments: StoreKind.allCases)
    func noteRateTagAndEditChangeWhatShowPrints(_ kind: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let store = try kind.makeStore(in: folder)
        try importCSV("name,email\nAda Lovelace,ada@example.com\nBob Stone,bob@example.com\n", store: store, in: folder)

        let noted = try ProspectsProcess.run([
            "note", "--store", store, "--by", "bo", "ada@example.com", "call", "Monday",
        ])
        #expect(noted.status == 0, "\(noted.stderr)")
        let rated = try ProspectsProcess.run(["rate", "--store", store, "ada@example.com", "hot"])
        #expect(rated.status == 0, "\(rated.stderr)")
        let tagged = try ProspectsProcess.run(["tag", "--store", store, "ada@example.com", "+demo", "+pricing"])
        #expect(tagged.output == "ada@example.com: tags: demo, pricing\n", "\(tagged.stderr)")
        let untagged = try ProspectsProcess.run(["tag", "--store", store, "ada@example.com", "-pricing"])
        #expect(untagged.status == 0, "\(untagged.stderr)")
        let edited = try ProspectsProcess.run([
            "edit", "--store", store, "ada@example.com", "--name", "Ada King", "--title", "Countess",
            "--organization", "Analytical Engines", "--phone", "+44 20 7946 0000", "--email", "ada@king.example",
        ])
        #expect(edited.status == 0, "\(edited.stderr)")

        let ada = try show("ada@king.example", store: store)
        #expect(ada["name"] as? String == "Ada King")
        #expect(ada["title"] as? String == "Countess")
        #expect(ada["organization"] as? String == "Analytical Engines")
        #expect(ada["phone"] as? String == "+44 20 7946 0000")
        #expect(ada["rating"] as? String == "hot")
        #expect(ada["tags"] as? [String] == ["demo"])
        let notes = try #require(ada["notes"] as? [[String: Any]])
        #expect(notes.map { $0["text"] as? String } == ["call Monday"])
        #expect(notes.map { $0["author"] as? String } == ["bo"])
        #expect(try ProspectsProcess.run(["show", "--store", store, "ada@example.com"]).status == 65)

        // Bob's address for Ada is refused, naming Bob; nothing changes.
        let clash = try ProspectsProcess.run([
            "edit", "--store", store, "ada@king.example", "--email", "BOB@example.com",
        ])
        #expect(clash.status == 65)
        #expect(clash.stderr.contains("bob@example.com is already prospect #"), "\(clash.stderr)")
        #expect(clash.stderr.contains("(Bob Stone)"), "\(clash.stderr)")
        #expect(try show("ada@king.example", store: store)["name"] as? String == "Ada King")
        // A name that is no name is refused as a card's would be.
        #expect(try ProspectsProcess.run(["edit", "--store", store, "ada@king.example", "--name", " "]).status == 65)
        #expect(try ProspectsProcess.run(["rate", "--store", store, "nobody@example.com", "warm"]).status == 65)
        #expect(try ProspectsProcess.run(["rate", "--store", store, "ada@king.example", "scorching"]).status == 64)
    }

    @Test(arguments: StoreKind.allCases)
    func searchFiltersAndNaturalOrder(_ kind: StoreKind) throws {
        let folder = try TemporaryDirectory()
        let store = try kind.makeStore(in: folder)
        try importCSV(
            """
            name,email,organization
            Person 10,p10@example.com,
            Jürgen Müller,jm@example.de,Brauerei
            Person 2,p2@example.com,
            Ada Lovelace,ada@example.com,
            """, store: store, in: folder, ["--event", "Spring Fair", "--by", "ana"])
        #expect(try names(["--search", "muller"], store: store) == ["Jürgen Müller"])
        #expect(try names(["--search", "BRAUEREI"], store: store) == ["Jürgen Müller"])
        #expect(try names([], store: store) == ["Ada Lovelace", "Jürgen Müller", "Person 2", "Person 10"])
        #expect(try names(["--limit", "2", "--offset", "1"], store: store) == ["Jürgen Müller", "Person 2"])
        for (who, rating) in [("p2@example.com", "hot"), ("p10@example.com", "hot"), ("ada@example.com", "warm")] {
            #expect(try ProspectsProcess.run(["rate", "--store", store, who, rating]).status == 0)
        }
        #expect(try ProspectsProcess.run(["tag", "--store", store, "p10@example.com", "+demo"]).status == 0)
        #expect(try ProspectsProcess.run(["tag", "--store", store, "ada@example.com", "+demo"]).status == 0)
        #expect(try names(["--rating", "hot", "--tag", "demo"], store: store) == ["Person 10"])
        #expect(try names(["--search", "demo"], store: store) == ["Ada Lovelace", "Person 10"])
        #expect(try names(["--event", "Spring Fair", "--by", "ana"], store: store).count == 4)
        #expect(try names(["--event", "Winter Expo"], store: store).isEmpty)

        let table = try ProspectsProcess.run(["list", "--store", store, "--columns", "name,rating,tags"])
        #expect(table.lines.first == "NAME           RATING  TAGS", "\(table.output)")
        #expect(table.lines.contains("Person 10      hot     demo"), "\(table.output)")
    }

    /// A store made by the previous release (schema version 2, without the new fields) opens, lists the same rows,
    /// and takes a note.
    @Test func aStoreOfThePreviousSchemaListsTheSameRowsAndTakesANote() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("old.sqlite")
        let previousRelease = """
            CREATE TABLE prospects (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL,
              email_key TEXT NOT NULL UNIQUE, contacted INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL,
              phone TEXT, organization TEXT, last_seen_at INTEGER NOT NULL DEFAULT 0,
              scan_count INTEGER NOT NULL DEFAULT 1, first_source TEXT NOT NULL DEFAULT '', remind_at INTEGER,
              name_key TEXT NOT NULL DEFAULT '');
            CREATE INDEX prospects_by_reminder ON prospects (remind_at) WHERE remind_at IS NOT NULL;
            CREATE TABLE scans (id INTEGER PRIMARY KEY,
              prospect_id INTEGER NOT NULL REFERENCES prospects (id) ON DELETE CASCADE,
              source TEXT NOT NULL, seen_at INTEGER NOT NULL);
            CREATE INDEX scans_by_prospect ON scans (prospect_id);
            CREATE TABLE id_high_water (last_id INTEGER NOT NULL);
            CREATE TABLE files (content_hash TEXT PRIMARY KEY, file_name TEXT NOT NULL, outcome TEXT NOT NULL,
              prospects INTEGER NOT NULL, processed_at INTEGER NOT NULL);
            INSERT INTO prospects (name, email, email_key, contacted, created_at, last_seen_at, scan_count,
              first_source, remind_at, name_key) VALUES
              ('Person 10', 'p10@example.com', 'p10@example.com', 1, 1000, 1000, 1, 'a.png', NULL, 'person 10'),
              ('Person 2', 'p2@example.com', 'p2@example.com', 0, 2000, 2000, 3, 'b.png', 4102444800000, 'person 2');
            INSERT INTO id_high_water (last_id) VALUES (2);
            PRAGMA user_version = 2;
            """
        _ = try OutputSafetyTests.sqlite3(store, previousRelease)
        let listed = try ProspectsProcess.run(["list", "--json", "--store", store])
        #expect(listed.status == 0, "\(listed.stderr)")
        // Said once, with the way back: a copy of the file as it was.
        #expect(listed.stderr.hasPrefix("prospects: \(store): migrated from schema version 2 to "), "\(listed.stderr)")
        #expect(listed.stderr.contains("the file as it was is kept in \(store).schema-2.bak; "), "\(listed.stderr)")
        #expect(listed.stderr.components(separatedBy: "\n").count == 2, "one line: \(listed.stderr)")
        #expect(FileManager.default.fileExists(atPath: store + ".schema-2.bak"))
        let rows = try listed.lines.map { try object($0) }
        #expect(rows.map { $0["email"] as? String } == ["p2@example.com", "p10@example.com"])
        #expect(rows.map { $0["contacted"] as? Bool } == [false, true])
        #expect(rows.first?["remindAt"] as? String == "2100-01-01T00:00:00.000Z")
        let noted = try ProspectsProcess.run(["note", "--store", store, "--by", "ana", "p10@example.com", "still keen"])
        #expect(noted.status == 0, "\(noted.stderr)")
        #expect(noted.stderr.isEmpty, "said once: \(noted.stderr)")
        let notes = try #require(try show("p10@example.com", store: store)["notes"] as? [[String: Any]])
        #expect(notes.map { $0["text"] as? String } == ["still keen"])
    }

    @Test func remindTakesSpokenTimesAndWarnsOfAPastOne() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        try importCSV("name,email\nAda,ada@example.com\n", store: store, in: folder)
        let tomorrow = try ProspectsProcess.run(
            ["remind", "--store", store, "--at", "tomorrow 9:00", "ada@example.com"], environment: ["TZ": "UTC"])
        #expect(tomorrow.status == 0, "\(tomorrow.stderr)")
        #expect(tomorrow.output.hasSuffix(" 09:00 UTC\n"), "\(tomorrow.output)")
        #expect(tomorrow.stderr.isEmpty)
        let inDays = try ProspectsProcess.run(["remind", "--store", store, "--at", "in 3 days", "ada@example.com"])
        #expect(inDays.status == 0, "\(inDays.stderr)")
        let past = try ProspectsProcess.run(["remind", "--store", store, "--at", "2020-01-01", "ada@example.com"])
        #expect(past.status == 0)
        #expect(past.stderr.contains("is already past"), "\(past.stderr)")
    }

    /// Without a terminal, `delete` of several prospects asks nothing, as scripts expect.
    @Test func deleteWithoutATerminalAsksNothing() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        try importCSV("name,email\nAda,ada@example.com\nBob,bob@example.com\n", store: store, in: folder)
        let deleted = try ProspectsProcess.run(["delete", "--store", store, "ada@example.com", "bob@example.com"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.lines == ["ada@example.com: deleted", "bob@example.com: deleted"])
    }

    /// A three-card address book export gives three leads, whether its name says vCard or only its content does.
    @Test func aVCardFileOfThreeCardsGivesThreeLeads() throws {
        let folder = try TemporaryDirectory()
        let cards = """
            BEGIN:VCARD\r
            VERSION:2.1\r
            N:Lovelace;Ada\r
            FN:Ada Lovelace\r
            EMAIL;INTERNET:ada@example.com\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Bob Stone\r
            TITLE:Buyer\r
            EMAIL:bob@example.com\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Jürgen Müller\r
            EMAIL:jm@example.de\r
            END:VCARD\r

            """
        for (name, format) in [("contacts.vcf", [String]()), ("export.txt", []), ("cards.dat", ["--format", "vcard"])] {
            let store = folder.file("\(name).sqlite")
            let path = folder.file(name)
            try Data(cards.utf8).write(to: URL(fileURLWithPath: path))
            let imported = try ProspectsProcess.run(["import", "--store", store] + format + [path])
            #expect(imported.status == 0, "\(name): \(imported.stderr)")
            #expect(imported.output.hasPrefix("3 rows: 3 inserted"), "\(name): \(imported.output)")
            #expect(try names([], store: store) == ["Ada Lovelace", "Bob Stone", "Jürgen Müller"])
        }
    }

    /// `export --profile`: each CRM's own columns; Google's file imports back into another store with every field
    /// import reads (name and its parts, both addresses, phone, organisation, title).
    @Test func crmProfilesWriteTheirColumnsAndGooglesFileImportsBack() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let card = folder.file("appleseed.vcf")
        try Data(Self.appleseed.utf8).write(to: URL(fileURLWithPath: card))
        let imported = try ProspectsProcess.run(["import", "--store", store, card])
        #expect(imported.status == 0, "\(imported.stderr)")
        let salesforce = try ProspectsProcess.run([
            "export", "--format", "csv", "--profile", "salesforce", "--store", store,
        ])
        #expect(salesforce.status == 0, "\(salesforce.stderr)")
        #expect(
            salesforce.output.components(separatedBy: "\r\n") == [
                "First Name,Last Name,Email,Phone,Company,Title,Rating,Lead Status,Lead Source,Description",
                "Johnny,Appleseed,johnny@orchards.example,+1 555 0100,Orchards Inc.,Head Grower,,Open - Not Contacted,"
                    + "Trade Show,Wants a demo of the cider press", "",
            ])
        let hubspot = try ProspectsProcess.run(["export", "--format", "csv", "--profile", "hubspot", "--store", store])
        #expect(
            hubspot.output.components(separatedBy: "\r\n").first
                == "First Name,Last Name,Email,Phone Number,Company Name,Job Title,Lead Status,Notes")

        let google = folder.file("google.csv")
        let exported = try ProspectsProcess.run([
            "export", "--format", "csv", "--profile", "google", "-o", google, "--store", store,
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        let other = folder.file("other.sqlite")
        let back = try ProspectsProcess.run(["import", "--store", other, google])
        #expect(back.status == 0, "\(back.stderr)")
        let original = try show("johnny@orchards.example", store: store)
        let copy = try show("johnny@orchards.example", store: other)
        for key in ["name", "email", "phone", "organization", "title", "otherEmails", "nameParts"] {
            #expect(
                (copy[key] as? NSObject)?.isEqual(original[key]) == true,
                "\(key): \(String(describing: copy[key])) != \(String(describing: original[key]))")
        }

        let wrong = try ProspectsProcess.run(["export", "--format", "json", "--profile", "google", "--store", store])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("--profile concerns --format csv only"))
    }
}
