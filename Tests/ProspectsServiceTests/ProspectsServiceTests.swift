import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import ProspectsTestSupport
import Testing

@testable import ProspectsService

/// The application layer on a real SQLite file: the calls every front-end makes, and what they answer.
@Suite struct ProspectsServiceTests {
    let folder: TemporaryDirectory
    let storePath: String
    let service: ProspectsService

    init() throws {
        folder = try TemporaryDirectory()
        storePath = folder.file("prospects.sqlite")
        service = ProspectsService(location: .sqlite(path: storePath))
    }

    /// Loads `count` prospects named `Person 01`… through the store, as a scan would.
    func load(_ count: Int) throws {
        let sightings = (1...count).map { number in
            let padded = number < 10 ? "0\(number)" : "\(number)"
            return Sighting(
                prospect: Prospect(name: "Person \(padded)", email: "p\(padded)@example.com"), source: "test",
                seenAt: Date())
        }
        _ = try service.store(create: true).record(sightings)
    }

    func names(_ query: ProspectQuery) throws -> [String] {
        try service.list(query).map(\.prospect.name)
    }

    @Test func aPageIsTheSliceOfTheOrderedList() throws {
        try load(12)
        #expect(try names(.init()).count == 12)
        #expect(try names(.init(limit: 3)) == ["Person 01", "Person 02", "Person 03"])
        #expect(try names(.init(limit: 3, offset: 10)) == ["Person 11", "Person 12"])
        #expect(try names(.init(reverse: true, limit: 2, offset: 1)) == ["Person 11", "Person 10"])
        #expect(try names(.init(limit: 0)).isEmpty)
        #expect(try names(.init(offset: 12)).isEmpty)
        var seen = 0
        try service.forEach(.init(limit: 5)) { _ in
            seen += 1
            return seen < 2
        }
        #expect(seen == 2, "the caller's false stops the list before the limit")
    }

    @Test func aQueryOnAMissingStoreDoesNotCreateIt() throws {
        #expect(throws: StoreError.self) { try service.list(.init()) }
        #expect(!FileManager.default.fileExists(atPath: storePath))
    }

    @Test func deleteLooksEveryReferenceUpFirst() throws {
        try load(3)
        let ada = try #require(try service.details(of: .email("p01@example.com")))
        var reports: [String] = []
        try service.delete([.id(ada.stored.id), .email("nobody@example.com"), .email("P01@example.com")]) {
            reports.append("\($0):\($1)")
        }
        // The unknown one is said while looking up; both names of the same prospect count as deleted.
        #expect(reports == ["1:false", "0:true", "2:true"])
        #expect(try service.details(of: .email("p01@example.com")) == nil)
        #expect(try service.list(.init()).count == 2)
    }

    @Test func markRemindAndDueWriteBackByReference() throws {
        try load(2)
        #expect(try service.setContacted(.email("p02@example.com"), true))
        #expect(try !service.setContacted(.email("nobody@example.com"), true))
        #expect(try names(.init(filter: .contacted)) == ["Person 02"])
        let now = Date()
        #expect(try service.setReminder(.email("p01@example.com"), at: now.addingTimeInterval(-60)))
        #expect(try service.setReminder(.email("p02@example.com"), at: now.addingTimeInterval(3600)))
        #expect(try service.due(at: now).map(\.prospect.name) == ["Person 01"])
        let details = try #require(try service.details(of: .email("p01@example.com")))
        #expect(details.history.map(\.source) == ["test"])
    }

    @Test func aListImportedTwiceCountsNobodyTwice() throws {
        let list = try folder.contactList(5)
        let request = ListImport.Request(path: list, format: .csv)
        let first = try service.importList(request) { _ in }
        #expect(first.totals.inserted == 5 && first.importedBefore == nil)
        let second = try service.importList(request) { _ in }
        #expect(second.totals.inserted == 0 && second.totals.alreadyIn == 5)
        #expect(second.importedBefore != nil)
        // With countAgain, the ledger is not asked: every row is a duplicate.
        let again = try service.importList(ListImport.Request(path: list, format: .csv, countAgain: true)) { _ in }
        #expect(again.importedBefore == nil && again.totals.duplicates == 5)
    }

    @Test func importSaysRejectedRowsAndWhereNothingStarts() throws {
        let path = folder.file("list.csv")
        try Data("name,email\nAda,ada@example.org\nNo Address,not-an-address\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        var events: [ListImport.Event] = []
        let summary = try service.importList(.init(path: path, format: .csv)) { events.append($0) }
        #expect(summary.totals.inserted == 1 && summary.totals.rejected == 1)
        guard case .rejected(let rejection)? = events.first else {
            Issue.record("expected a rejection, got \(events)")
            return
        }
        #expect(rejection.line == 3)
        let past = try service.importList(.init(path: path, format: .csv, firstLine: 99, countAgain: true)) { _ in }
        #expect(past.nothingFromFirstLine && past.totals.rows == 0)
    }

    @Test func aListThatCannotBeOpenedIsSaidBeforeABadStoreLocation() throws {
        let nowhere = ProspectsService(storeOption: "mysql://somewhere/db", environment: [:])
        let missing = ListImport.Request(path: folder.file("missing.csv"), format: .csv)
        #expect {
            try nowhere.importList(missing) { _ in }
        } throws: { error in
            guard case .cannotOpen(.unreadable)? = error as? ListImport.Failure else { return false }
            return true
        }
        let list = ListImport.Request(path: try folder.contactList(1), format: .csv)
        #expect {
            try nowhere.importList(list) { _ in }
        } throws: { error in
            guard case .storeUnavailable(.invalidLocation)? = error as? ListImport.Failure else { return false }
            return true
        }
    }

    @Test func exportWritesTheSameBytesToAFileAsToAStream() throws {
        try load(4)
        var streamed: [UInt8] = []
        let count = try service.export(
            .init(), format: .csv, guardsFormulas: true,
            to: .stream { chunk in
                streamed += chunk
                return true
            })
        #expect(count == 4)
        let path = folder.file("list.csv")
        #expect(try service.export(.init(), format: .csv, guardsFormulas: true, to: .file(path: path)) == 4)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == streamed)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func exportNeverReplacesADatabase() throws {
        try load(1)
        let before = try Data(contentsOf: URL(fileURLWithPath: storePath))
        #expect {
            try service.export(.init(), format: .json, guardsFormulas: false, to: .file(path: storePath))
        } throws: { error in
            guard case .cannotCreate(let message)? = error as? OutputFileError else { return false }
            return message.contains("belongs to an SQLite database")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: storePath)) == before)
    }

    @Test func aCardReadsBackAsItsContact() throws {
        let card = try ContactCard(
            name: "Ada Lovelace", email: "ada@example.org", phone: nil, organization: nil, format: nil)
        #expect(card.format == .lines && card.payload == "Ada Lovelace\nada@example.org")
        #expect(Array(try card.png(moduleSize: 2).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let withPhone = try ContactCard(
            name: "Ada", email: "ada@example.org", phone: "+1 555 0100", organization: nil, format: nil)
        #expect(withPhone.format == .mecard)
        #expect(throws: CardError.detailsNeedRicherFormat) {
            try ContactCard(name: "Ada", email: "ada@example.org", phone: "1", organization: nil, format: .lines)
        }
        #expect(throws: CardError.unreadableInFormat(.lines)) {
            try ContactCard(
                name: "MECARD:N:Eve;", email: "ada@example.org", phone: nil, organization: nil, format: .lines)
        }
        #expect {
            try ContactCard(name: "Ada", email: "not-an-address", phone: nil, organization: nil, format: nil)
        } throws: { error in
            guard case .invalid? = error as? CardError else { return false }
            return true
        }
    }

    @Test func reminderTimesAreReadWithinTheirRange() {
        #expect(ReminderTime.parseDuration("1h30m") == 5400)
        #expect(ReminderTime.parseDuration("2w") == 1_209_600)
        #expect(ReminderTime.parseDuration("0s") == nil)
        #expect(ReminderTime.parseDuration("90") == nil)
        #expect(ReminderTime.parseDuration("101000d") == nil)
        #expect(ReminderTime.parseDate("2026-12-01T14:30:00Z") == Date(timeIntervalSince1970: 1_796_135_400))
        #expect(ReminderTime.parseDate("10000-01-01") == nil)
    }
}
