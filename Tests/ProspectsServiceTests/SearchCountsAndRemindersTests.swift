import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectsService

/// What the list page asks of the application layer: a search, the tabs' counts, and the reminders grouped.
@Suite struct SearchCountsAndRemindersTests {
    let folder: TemporaryDirectory
    let service: ProspectsService

    init() throws {
        folder = try TemporaryDirectory()
        service = ProspectsService(location: .sqlite(path: folder.file("prospects.sqlite")))
        let people = [
            Prospect(name: "Björn Ødegård", email: "bjorn@example.no", organization: "Fjord AS"),
            Prospect(name: "Ada Lovelace", email: "ada@example.org"),
            Prospect(name: "Grace Hopper", email: "grace@navy.example", organization: "US Navy"),
            Prospect(name: "Alan Turing", email: "alan@example.co.uk"),
        ]
        _ = try service.store(create: true).record(
            people.map { Sighting(prospect: $0, source: "test", seenAt: Date()) })
        _ = try service.setContacted(.email("grace@navy.example"), true)
    }

    func names(_ query: ProspectQuery) throws -> [String] {
        try service.list(query).map(\.prospect.name)
    }

    @Test func aSearchMatchesNameEmailOrOrganisationIgnoringCaseAndAccents() throws {
        #expect(try names(.init(search: "bjorn")) == ["Björn Ødegård"])
        #expect(try names(.init(search: "NAVY")) == ["Grace Hopper"])
        #expect(try names(.init(search: "example.org")) == ["Ada Lovelace"])
        #expect(try names(.init(search: "a")).count == 4)
        #expect(try names(.init(search: "  ")).count == 4, "blank selects everyone")
        #expect(try names(.init(search: "nobody")).isEmpty)
        #expect(try names(.init(filter: .uncontacted, search: "navy")).isEmpty)
        #expect(try names(.init(search: "a", limit: 1, offset: 1)) == ["Alan Turing"], "paging within the search")
    }

    @Test func countsEachTabWithAndWithoutASearch() throws {
        let all = try service.counts()
        #expect(all == TabCounts(everyone: 4, contacted: 1))
        #expect(all.uncontacted == 3)
        #expect(all[.contacted] == 1)
        #expect(try service.counts(search: "navy") == TabCounts(everyone: 1, contacted: 1))
        #expect(try service.counts(search: "ada") == TabCounts(everyone: 1, contacted: 0))
    }

    @Test func remindersFallInto4GroupsByTheTimeGiven() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let day: TimeInterval = 86_400
        _ = try service.setReminder(.email("ada@example.org"), at: now)
        _ = try service.setReminder(.email("alan@example.co.uk"), at: now + 7 * day)
        _ = try service.setReminder(.email("grace@navy.example"), at: now + 7 * day + 1)
        _ = try service.setReminder(.email("bjorn@example.no"), at: now + 31 * day)
        let groups = try service.reminders(at: now)
        #expect(groups.overdue.map(\.prospect.name) == ["Ada Lovelace"], "due at this very moment")
        #expect(groups.nextWeek.map(\.prospect.name) == ["Alan Turing"])
        #expect(groups.nextMonth.map(\.prospect.name) == ["Grace Hopper"])
        #expect(groups.later.map(\.prospect.name) == ["Björn Ødegård"])
        #expect(try service.reminders(at: now + 40 * day).overdue.count == 4)
        #expect(ReminderGroups([], now: now).isEmpty)
    }
}
