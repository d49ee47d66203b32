import Foundation
import ProspectsCore
import Testing

@testable import ProspectsCLI

/// `prospects event`: events as records, on a real SQLite store.
@Suite("event command")
struct EventCommandTests {
    @Test
    func anEventIsAddedShownEditedAndListedWithTheLeadsCollectedThere() throws {
        let ada = Prospect(name: "Ada Lovelace", email: "ada@example.com")
        let fixture = try CommandStoreFixture([ada], event: "Fair 2026")
        let added = fixture.run([
            "event", "add", "Expo 2026", "--starts", "2026-03-18", "--ends", "2026-03-20", "--location", "Hall B",
        ])
        #expect(added.status == .success && added.out == "added event Expo 2026\n")
        let shown = fixture.run(["event", "show", "Expo 2026"])
        #expect(shown.status == .success)
        #expect(shown.lines.contains("starts:         2026-03-18"))
        #expect(shown.lines.contains("ends:           2026-03-20"))
        #expect(shown.lines.contains("location:       Hall B"))
        #expect(shown.lines.contains("leads:          0 (0 scans)"))

        let edited = fixture.run(["event", "edit", "Expo 2026", "--location", "", "--ends", "2026-03-21"])
        #expect(edited.status == .success)
        let again = fixture.run(["event", "show", "Expo 2026"])
        #expect(again.lines.contains("ends:           2026-03-21"))
        #expect(!again.out.contains("location:"), "an empty value clears it")

        // The event the fixture's scans named was made with them.
        let fair = fixture.run(["event", "show", "Fair 2026"])
        #expect(fair.status == .success && fair.lines.contains("leads:          1 (1 scan)"))
        let list = fixture.run(["event", "list"])
        #expect(list.status == .success)
        #expect(list.lines.count == 4 && list.lines.last == "2 events")
        #expect(list.lines[1].hasPrefix("Expo 2026 ") && list.lines[2].hasPrefix("Fair 2026 "))
    }

    @Test
    func badDaysPatternsAndNamesAreRefusedAndNothingChanges() throws {
        let fixture = try CommandStoreFixture([])
        #expect(fixture.run(["event", "add", "Expo"]).status == .success)
        let taken = fixture.run(["event", "add", "Expo", "--location", "elsewhere"])
        #expect(taken.status == .dataError && taken.err.contains("there is already an event named Expo"))
        let badDay = fixture.run(["event", "add", "Late", "--starts", "2026-02-30"])
        #expect(badDay.status == .usage && badDay.err.contains("--starts must be a day as YYYY-MM-DD"))
        let backwards = fixture.run(["event", "edit", "Expo", "--starts", "2026-03-02", "--ends", "2026-03-01"])
        #expect(backwards.status == .usage && backwards.err.contains("cannot end (2026-03-01) before it starts"))
        let unnamed = fixture.run(["event", "edit", "Expo", "--badge-pattern", "b/([0-9]+)"])
        #expect(unnamed.status == .usage && unnamed.err.contains("exactly one named group"))
        let unknown = fixture.run(["event", "edit", "Nope", "--location", "x"])
        #expect(unknown.status == .dataError && unknown.err.contains("there is no event named Nope"))
        let shown = fixture.run(["event", "show", "Expo"])
        #expect(!shown.out.contains("starts:") && !shown.out.contains("badge pattern:"))
        #expect(fixture.run(["event", "list"]).lines.last == "1 event", "the refused names were never added")
        #expect(fixture.run(["event", "edit", "Expo"]).status == .usage, "an edit needs something to change")
    }
}
