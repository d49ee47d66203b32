import Foundation
import ProspectsTestSupport
import Testing

@testable import ProspectsCLI

/// `prospects roster`: an attendee list imported, imported again updated, listed and shown, on a real SQLite store.
@Suite("roster command")
struct RosterCommandTests {
    @Test
    func anUpdatedListImportedAgainUpdatesTheRosterAndRefusedRowsAreNamedByLine() throws {
        let fixture = try CommandStoreFixture([])
        let list = fixture.folder.file("attendees.csv")
        try """
        Barcode #,First Name,Last Name,Email,Company
        0814847311126137001,Ada,Lovelace,ada@example.com,Engines Ltd
        ,No,Barcode,x@example.com,
        0814847311126137002,Bob,Byte,,Acme

        """.write(toFile: list, atomically: true, encoding: .utf8)
        let first = fixture.run(["roster", "import", "--event", "Expo 2026", "--profile", "eventbrite", list])
        #expect(first.status == .dataError, "a row was refused")
        #expect(first.out == "3 rows: 2 added, 0 updated, 1 refused — roster of Expo 2026\n")
        #expect(first.err == "prospects: \(list):3: no attendee ID\n")

        try """
        Barcode #,First Name,Last Name,Email,Company
        0814847311126137002,Bob,Byte,bob@example.com,Acme
        0814847311126137003,Cy,Other,cy@example.com,

        """.write(toFile: list, atomically: true, encoding: .utf8)
        let second = fixture.run(["roster", "import", "--event", "Expo 2026", "--profile", "eventbrite", list])
        #expect(second.status == .success && second.err.isEmpty)
        #expect(second.out == "2 rows: 1 added, 1 updated, 0 refused — roster of Expo 2026\n")

        let listed = fixture.run(["roster", "list", "--event", "Expo 2026"])
        #expect(listed.status == .success && listed.lines.last == "3 attendees")
        #expect(listed.lines.dropFirst().first?.hasPrefix("0814847311126137001  Ada Lovelace") == true)
        let bob = fixture.run(["roster", "show", "--event", "Expo 2026", "0814847311126137002"])
        #expect(bob.status == .success && bob.lines.contains("email:          bob@example.com"))
        let unknown = fixture.run(["roster", "show", "--event", "Expo 2026", "42"])
        #expect(unknown.status == .dataError && unknown.err.contains("has no attendee 42"))
        let noEvent = fixture.run(["roster", "list", "--event", "Nowhere"])
        #expect(noEvent.status == .dataError && noEvent.err.contains("there is no event named Nowhere"))
        #expect(fixture.run(["event", "show", "Expo 2026"]).lines.contains("attendees:      3"))
    }

    @Test
    func aListWithoutTheColumnsNeededIsRefusedWholeAndTheStoreUntouched() throws {
        let fixture = try CommandStoreFixture([])
        let list = fixture.folder.file("people.csv")
        try "Name,Email\nAda,ada@example.com\n".write(toFile: list, atomically: true, encoding: .utf8)
        let refused = fixture.run(["roster", "import", "--event", "Expo", list])
        #expect(refused.status == .dataError && refused.err.contains("no \"ID\" column"))
        #expect(fixture.run(["event", "list"]).lines.last == "0 events")
        let missing = fixture.run(["roster", "import", "--event", "Expo", fixture.folder.file("none.csv")])
        #expect(missing.status == .noInput)
        #expect(fixture.run(["roster", "list"]).status == .usage, "--event is required")
    }
}
