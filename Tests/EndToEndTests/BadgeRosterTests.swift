import Foundation
import ProspectsTestSupport
import Testing

/// Issue 32 on the built binary: an event, its attendee list, and badges that hold only an attendee ID.
@Suite struct BadgeRosterTests {
    @Test func badgesHoldingIDsAreLookedUpInTheImportedRosterAndAnUnknownOneIsNamed() throws {
        let folder = try TemporaryDirectory()
        let store = folder.file("prospects.sqlite")
        let roster = folder.file("attendees.csv")
        try Data(
            """
            Order #,First Name,Last Name,Email,Attendee #,Barcode #,Company,Job Title,Work Phone
            1001,Ada,Lovelace,ada@example.com,2001,0814847311126137001,Engines Ltd,CTO,+44 20 7946 0000
            1002,Grace,Hopper,grace@example.com,2002,0814847311126137002,Navy,,

            """.utf8
        ).write(to: URL(fileURLWithPath: roster))
        let imported = try ProspectsProcess.run([
            "roster", "import", "--store", store, "--event", "Expo 2026", "--profile", "eventbrite", roster,
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.output == "2 rows: 2 added, 0 updated, 0 refused — roster of Expo 2026\n")
        let edited = try ProspectsProcess.run([
            "event", "edit", "--store", store, "Expo 2026", "--badge-pattern", "https://reg\\.example/b/(?<id>[0-9]+)",
        ])
        #expect(edited.status == 0, "\(edited.stderr)")

        let pictures = folder.file("badges")
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: false)
        for (name, text) in [
            ("1-known.png", "0814847311126137001"), ("2-url.png", "https://reg.example/b/0814847311126137002"),
            ("3-unknown.png", "12345"),
        ] {
            try Data(PNGFixtures.contactCode(text)).write(to: URL(fileURLWithPath: pictures + "/" + name))
        }
        let ingested = try ProspectsProcess.run(["ingest", "--store", store, "--event", "Expo 2026", pictures])
        #expect(ingested.status == 65, "a badge was rejected")
        #expect(ingested.output.hasPrefix("3 files: 2 inserted, 0 duplicates, 1 rejected"))
        #expect(ingested.stderr.contains("badge 12345 is not in the roster of Expo 2026"))
        let listed = try ProspectsProcess.run(["list", "--store", store, "--event", "Expo 2026"])
        #expect(listed.status == 0)
        #expect(listed.output.contains("Ada Lovelace") && listed.output.contains("Grace Hopper"))
        let shown = try ProspectsProcess.run(["event", "show", "--store", store, "Expo 2026"])
        #expect(shown.output.contains("leads:          2 (2 scans)") && shown.output.contains("attendees:      2"))
    }
}
