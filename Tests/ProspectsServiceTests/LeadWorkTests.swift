import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest
import ProspectsTestSupport
import Testing

@testable import ProspectsService

/// Working a lead through the application layer, on a real SQLite file.
@Suite struct LeadWorkTests {
    let folder: TemporaryDirectory
    let service: ProspectsService

    init() throws {
        folder = try TemporaryDirectory()
        service = ProspectsService(location: .sqlite(path: folder.file("prospects.sqlite")))
        _ = try service.store(create: true).record([
            Sighting(prospect: Prospect(name: "Jürgen Müller", email: "jm@example.de"), source: "a", seenAt: Date()),
            Sighting(prospect: Prospect(name: "Ada Lovelace", email: "ada@example.com"), source: "b", seenAt: Date()),
            Sighting(prospect: Prospect(name: "Ada Byron", email: "byron@example.com"), source: "c", seenAt: Date()),
        ])
    }

    @Test func aLeadIsFoundByAddressIdOrASearchOfExactlyOne() throws {
        guard case .found(let jurgen) = try service.lookUp("JM@example.de") else {
            Issue.record("expected Jürgen by address")
            return
        }
        #expect(try service.lookUp("#\(jurgen.id)") == .found(jurgen))
        #expect(try service.lookUp("muller") == .found(jurgen))
        guard case .several(let adas) = try service.lookUp("ada") else {
            Issue.record("expected two Adas")
            return
        }
        #expect(adas.map(\.prospect.name) == ["Ada Byron", "Ada Lovelace"])
        #expect(try service.lookUp("nobody") == LeadLookup.none)
        #expect(try service.lookUp("  ") == LeadLookup.none)
    }

    @Test func notesAreCheckedAndKeptWithTheirAuthor() throws {
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        let note = try service.addNote(
            .email("ada@example.com"), text: "  call back\r\nMonday ", author: "ana", at: when)
        #expect(note == ProspectNote(writtenAt: when, author: "ana", text: "call back\nMonday"))
        #expect(throws: LeadChangeError.nothingGiven("the note is empty")) {
            try service.addNote(.email("ada@example.com"), text: " \n ", author: "ana", at: when)
        }
        #expect(throws: LeadChangeError.invalid(.unsafeCharacters(field: "note", scalar: 0x202E))) {
            try service.addNote(.email("ada@example.com"), text: "evil \u{202E}txt", author: "ana", at: when)
        }
        #expect(throws: LeadChangeError.notFound) {
            try service.addNote(.email("nobody@example.com"), text: "hi", author: "ana", at: when)
        }
        let details = try #require(try service.details(of: .email("ada@example.com")))
        #expect(details.notes == [note])
    }

    @Test func ratingsAndTagsChangeAndAreFilteredOn() throws {
        try service.setRating(.email("ada@example.com"), .hot)
        #expect(
            try service.changeTags(.email("ada@example.com"), adding: ["demo", " pricing "], removing: []) == [
                "demo", "pricing",
            ])
        #expect(
            try service.changeTags(.email("ada@example.com"), adding: [], removing: ["pricing", "absent"]) == ["demo"])
        #expect(throws: LeadChangeError.nothingGiven("no tag to add or remove")) {
            try service.changeTags(.email("ada@example.com"), adding: [" "], removing: [])
        }
        #expect(throws: LeadChangeError.notFound) { try service.setRating(.email("nobody@example.com"), .warm) }
        #expect(try service.list(ProspectQuery(rating: .hot, tag: "DEMO")).map(\.prospect.name) == ["Ada Lovelace"])
        #expect(try service.list(ProspectQuery(search: "demo")).map(\.prospect.name) == ["Ada Lovelace"])
    }

    @Test func anEditIsCheckedAsACardAndAClashNamesTheOtherLead() throws {
        let edited = try service.edit(
            .email("ada@example.com"),
            ProspectEdit(name: " Ada King ", email: "ada@king.example", organization: .some(nil), title: "Countess"))
        #expect(edited.prospect.name == "Ada King")
        #expect(edited.prospect.email == "ada@king.example")
        #expect(edited.prospect.title == "Countess")
        #expect(try service.lookUp("ada@example.com") == LeadLookup.none)
        #expect(throws: LeadChangeError.invalid(.emptyName)) {
            try service.edit(.email("ada@king.example"), ProspectEdit(name: "  "))
        }
        do {
            _ = try service.edit(.email("ada@king.example"), ProspectEdit(email: "JM@example.de"))
            Issue.record("expected the clash to be refused")
        } catch {
            guard case .emailTaken(let other) = error else {
                Issue.record("expected emailTaken, got \(error)")
                return
            }
            #expect(other.prospect.name == "Jürgen Müller")
            #expect(error.message.contains("jm@example.de is already prospect #\(other.id) (Jürgen Müller)"))
        }
        #expect(try service.details(of: .email("ada@king.example"))?.stored.prospect.name == "Ada King")
    }

    @Test func eachScanKeepsItsEventAndCollector() throws {
        let store = try service.store()
        let ada = Prospect(name: "Ada Lovelace", email: "ada@example.com")
        _ = try store.record([
            Sighting(prospect: ada, source: "x", seenAt: Date(), event: "KubeCon EU 2026", collectedBy: "bo"),
            Sighting(prospect: ada, source: "y", seenAt: Date(), event: "Spring Fair", collectedBy: "bo"),
        ])
        let details = try #require(try service.details(of: .email("ada@example.com")))
        #expect(details.events == ["KubeCon EU 2026", "Spring Fair"])
        #expect(details.collectors == ["bo"])
    }
}

/// `remind`'s spoken times, read at a fixed moment in a fixed zone.
@Suite struct ReminderTimeTests {
    /// Wednesday 2026-12-02 15:30 in Paris (14:30 UTC).
    let now = Date(timeIntervalSince1970: 1_796_221_800)
    let paris = TimeZone(identifier: "Europe/Paris")!

    func local(_ text: String) -> String? {
        guard let date = ReminderTime.parse(text, now: now, timeZone: paris) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = paris
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!)
    }

    @Test func daysAndTimesAsPeopleSayThem() {
        #expect(local("tomorrow 9:00") == "2026-12-03 09:00")
        #expect(local("Tomorrow") == "2026-12-03 09:00")
        #expect(local("today 17:30") == "2026-12-02 17:30")
        #expect(local("friday") == "2026-12-04 09:00")
        #expect(local("fri 2pm") == "2026-12-04 14:00")
        #expect(local("wednesday") == "2026-12-09 09:00", "the day named is after today")
        #expect(local("next monday 8:15") == "2026-12-07 08:15")
        #expect(local("12am") == nil)
        #expect(local("tomorrow 12am") == "2026-12-03 00:00")
        #expect(local("tomorrow 24:00") == nil)
        #expect(local("tomorrow 9:5") == nil)
        #expect(local("someday") == nil)
    }

    @Test func durationsFromNow() {
        #expect(local("in 3 days") == "2026-12-05 15:30")
        #expect(local("in 2 hours") == "2026-12-02 17:30")
        #expect(local("in 90 minutes") == "2026-12-02 17:00")
        #expect(local("in 1 week") == "2026-12-09 15:30")
        #expect(local("in 1h30m") == "2026-12-02 17:00")
        #expect(local("in 0 days") == nil)
        #expect(local("in three days") == nil)
        // The clock change: three days after a Saturday noon before it is noon still.
        let beforeChange = Date(timeIntervalSince1970: 1_792_756_800)  // 2026-10-23 12:00 in Paris (CEST)
        let after = ReminderTime.parse("in 3 days", now: beforeChange, timeZone: paris)
        #expect(after == beforeChange.addingTimeInterval(3 * 86_400 + 3600))
    }

    /// A date without a zone in the zone given (a browser's), whatever the process's `TZ`; one with a zone as written.
    @Test func aDateWithoutAZoneIsReadInTheZoneGiven() {
        let utc = { (text: String) in ISO8601DateFormatter().date(from: text) }
        #expect(ReminderTime.parseDate("2026-12-10 09:00", timeZone: paris) == utc("2026-12-10T08:00:00Z"), "CET")
        #expect(ReminderTime.parseDate("2026-07-10 09:00", timeZone: paris) == utc("2026-07-10T07:00:00Z"), "CEST")
        #expect(ReminderTime.parseDate("2026-12-10", timeZone: paris) == utc("2026-12-10T08:00:00Z"), "09:00 there")
        #expect(ReminderTime.parseDate("2026-12-10 09:00Z", timeZone: paris) == utc("2026-12-10T09:00:00Z"))
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(ReminderTime.parseDate("2026-12-10 09:00", timeZone: tokyo) == utc("2026-12-10T00:00:00Z"))
        #expect(ReminderTime.parseDate("2026-02-30 09:00", timeZone: paris) == nil, "no such day")
    }

    @Test func todaysFormsStillWork() {
        #expect(
            ReminderTime.parse("2026-12-01T14:30:00Z", now: now, timeZone: paris)
                == Date(timeIntervalSince1970: 1_796_135_400))
    }
}
