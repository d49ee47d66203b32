import Foundation
import ProspectsCore
import Testing

@testable import ProspectStore

/// One suite, run unchanged against every `StoreKind`: both stores must behave identically.
@Suite("ProspectStore conformance")
struct ProspectStoreConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func insertsAndReadsBack(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let results = try store.record([
            sighting(
                "Paul Hudson", "Paul@Example.com", source: "in/paul.png", at: 1_000, phone: "+44 1", organization: "HWS"
            )
        ])
        guard case .inserted(let id) = results.first, results.count == 1 else {
            Issue.record("expected one insert, got \(results)")
            return
        }
        let expected = StoredProspect(
            id: id,
            prospect: Prospect(name: "Paul Hudson", email: "Paul@Example.com", phone: "+44 1", organization: "HWS"),
            key: "paul@example.com", isContacted: false, createdAt: date(1_000), lastSeenAt: date(1_000), scanCount: 1,
            firstSource: "in/paul.png", remindAt: nil)
        #expect(try store.prospect(.id(id)) == expected)
        #expect(try store.prospect(.email(" PAUL@example.com ")) == expected)
        #expect(try store.list(filter: .everyone, sort: .name, reverse: false) == [expected])
        #expect(try store.history(of: id) == [ScanRecord(source: "in/paul.png", seenAt: date(1_000))])
        #expect(try store.count() == 1)
        #expect(try store.prospect(.id(id + 1000)) == nil)
        #expect(try store.prospect(.email("nobody@example.com")) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func deduplicatesCaseAndNormalizationVariants(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let first = try store.record([sighting("José", "José@Example.com")])
        let variants = ["jose\u{301}@example.com", " JOSÉ@EXAMPLE.COM", "JOSE\u{301}@example.com\n"]
        var later: [SightingResult] = []
        for variant in variants { later += try store.record([sighting("José", variant)]) }
        guard case .inserted(let id) = first.first else {
            Issue.record("expected an insert, got \(first)")
            return
        }
        #expect(later == Array(repeating: .duplicate(id: id), count: variants.count))
        #expect(try store.count() == 1)
        #expect(try store.prospect(.id(id))?.scanCount == 4)
        #expect(try store.prospect(.id(id))?.prospect.email == "José@Example.com", "the first spelling is kept")
    }

    @Test(arguments: StoreKind.allCases)
    func secondScanUpdatesBookkeepingAndHistory(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        _ = try store.record([sighting("Ann", "ann@example.com", source: "one.png", at: 2_000)])
        _ = try store.record([sighting("Ann B", "ANN@example.com", source: "two.png", at: 5_000)])
        // A late-arriving older picture counts, but does not move last-seen backwards.
        let results = try store.record([sighting("Ann", "ann@example.com", source: "zero.png", at: 1_000)])
        guard case .duplicate(let id) = results.first else {
            Issue.record("expected a duplicate, got \(results)")
            return
        }
        let stored = try #require(try store.prospect(.id(id)))
        #expect(stored.scanCount == 3)
        #expect(stored.createdAt == date(2_000))
        #expect(stored.lastSeenAt == date(5_000))
        #expect(stored.firstSource == "one.png")
        #expect(stored.prospect.name == "Ann", "a second scan does not rename")
        #expect(
            try store.history(of: id) == [
                ScanRecord(source: "zero.png", seenAt: date(1_000)), ScanRecord(source: "one.png", seenAt: date(2_000)),
                ScanRecord(source: "two.png", seenAt: date(5_000)),
            ])
    }

    @Test(arguments: StoreKind.allCases)
    func aLaterCardFillsInMissingPhoneAndOrganisationButNeverOverwrites(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        _ = try store.record([sighting("Grace Hopper", "grace@example.mil", at: 1)])
        _ = try store.record([sighting("Grace", "GRACE@example.mil", at: 2, phone: "+1 555 0100", organization: nil)])
        _ = try store.record([sighting("G", "grace@example.mil", at: 3, phone: "+1 999", organization: "US Navy")])
        let grace = try #require(try store.prospect(.email("grace@example.mil")))
        #expect(grace.prospect.name == "Grace Hopper", "the first name seen stays")
        #expect(grace.prospect.phone == "+1 555 0100", "a known phone is not overwritten")
        #expect(grace.prospect.organization == "US Navy", "a missing organisation is filled in")
        #expect(grace.scanCount == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func laterSightingInTheSameBatchIsADuplicate(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let results = try store.record([
            sighting("A", "a@example.com", at: 1), sighting("B", "b@example.com", at: 2),
            sighting("A again", "A@EXAMPLE.com", at: 3),
        ])
        guard results.count == 3, case .inserted(let a) = results[0], case .inserted(let b) = results[1] else {
            Issue.record("unexpected results \(results)")
            return
        }
        #expect(a != b)
        #expect(results[2] == .duplicate(id: a))
        #expect(try store.prospect(.id(a))?.scanCount == 2)
        #expect(try store.history(of: a).count == 2)
        #expect(try store.count() == 2)
    }

    /// The PostgreSQL store writes one call's sightings in key order, so that concurrent writers never lock rows
    /// in opposite orders; what both stores report, and the ids of the prospects a call creates, still follow
    /// the input. The keys here come in reverse byte order, and so do the ledger hashes.
    @Test(arguments: StoreKind.allCases)
    func resultsAndNewIDsFollowTheInputOrder(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let results = try store.record([
            sighting("Zed", "zed@example.com", source: "1"), sighting("Amy", "amy@example.com", source: "2"),
            sighting("Zed again", "ZED@example.com", source: "3"),
            sighting("Amy again", "amy@example.com", source: "4"),
        ])
        guard results.count == 4, case .inserted(let zed) = results[0], case .inserted(let amy) = results[1] else {
            Issue.record("unexpected results \(results)")
            return
        }
        #expect(zed < amy)
        #expect(results[2...] == [.duplicate(id: zed), .duplicate(id: amy)])
        #expect(try store.history(of: zed).map(\.source) == ["1", "3"])
        #expect(try store.prospect(.id(amy))?.prospect.name == "Amy")

        func entry(_ hash: String) -> LedgerEntry {
            LedgerEntry(contentHash: hash, fileName: hash, outcome: .inserted, prospects: 1, processedAt: date(1))
        }
        let groups = try store.record([
            LedgeredSightings(entry: entry("bb"), sightings: [sighting("Yan", "yan@example.com", source: "bb")]),
            LedgeredSightings(entry: entry("aa"), sightings: [sighting("Bea", "bea@example.com", source: "aa")]),
            LedgeredSightings(entry: entry("bb"), sightings: [sighting("Yan", "yan@example.com", source: "bb copy")]),
            LedgeredSightings(entry: nil, sightings: [sighting("Yan", "YAN@example.com", source: "list")]),
        ])
        guard groups.count == 4, case .recorded(let yan) = groups[0], case .inserted(let yanID)? = yan.first,
            case .recorded(let bea) = groups[1], case .inserted(let beaID)? = bea.first
        else {
            Issue.record("unexpected results \(groups)")
            return
        }
        #expect(amy < yanID && yanID < beaID)
        #expect(groups[2...] == [.alreadyInLedger(restored: [nil]), .recorded([.duplicate(id: yanID)])])
        #expect(try store.history(of: yanID).map(\.source) == ["bb", "list"])
        #expect(try store.ledgerEntry(contentHash: "bb")?.fileName == "bb")
    }

    @Test(arguments: StoreKind.allCases)
    func ledgerIsWrittenInTheSameTransaction(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let entry = LedgerEntry(
            contentHash: String(repeating: "ab", count: 32), fileName: "card.png", outcome: .inserted, prospects: 1,
            processedAt: date(9_000))
        let first = try store.record([LedgeredSightings(entry: entry, sightings: [sighting("Lee", "lee@example.com")])])
        #expect(first.count == 1)
        guard case .recorded(let results)? = first.first, case .inserted(let lee)? = results.first else {
            Issue.record("the first group was not recorded: \(first)")
            return
        }
        #expect(try store.ledgerEntry(contentHash: entry.contentHash) == entry)
        #expect(try store.ledgerEntry(contentHash: String(repeating: "cd", count: 32)) == nil)

        // The same content again records nothing and keeps the first entry; so does a copy later in one call.
        var again = entry
        again.outcome = .duplicate
        let copy = LedgeredSightings(entry: again, sightings: [sighting("Lee", "lee@example.com", source: "copy.png")])
        let fresh = LedgerEntry(
            contentHash: "ee", fileName: "new.png", outcome: .inserted, prospects: 1, processedAt: date(9_500))
        let freshGroup = LedgeredSightings(entry: fresh, sightings: [sighting("Max", "max@example.com")])
        #expect(try store.record([copy]) == [.alreadyInLedger(restored: [nil])])
        let mixed = try store.record([freshGroup, freshGroup])
        #expect(mixed.count == 2 && mixed[1] == .alreadyInLedger(restored: [nil]))
        if case .recorded(let maxResults) = mixed[0] {
            #expect(maxResults.count == 1)
        } else {
            Issue.record("a new hash was not recorded: \(mixed)")
        }
        #expect(try store.ledgerEntry(contentHash: entry.contentHash) == entry)
        #expect(try store.prospect(.id(lee))?.scanCount == 1)
        #expect(try store.prospect(.email("max@example.com"))?.scanCount == 1)

        // Content loaded before brings back a prospect deleted since, under a new id, and counts nobody else.
        let pair = LedgerEntry(
            contentHash: "aa", fileName: "pair.png", outcome: .inserted, prospects: 2, processedAt: date(9_600))
        let pairGroup = LedgeredSightings(
            entry: pair, sightings: [sighting("Lee", "lee@example.com"), sighting("Kim", "kim@example.com")])
        guard case .recorded(let pairResults)? = try store.record([pairGroup]).first,
            case .inserted(let kim)? = pairResults.last
        else {
            Issue.record("the pair was not recorded")
            return
        }
        #expect(try store.delete(.id(kim)))
        let restored = try store.record([pairGroup])
        guard case .alreadyInLedger(let ids)? = restored.first, ids.count == 2, ids[0] == nil, let newKim = ids[1]
        else {
            Issue.record("Kim was not restored: \(restored)")
            return
        }
        #expect(newKim > kim)
        #expect(try store.prospect(.email("kim@example.com"))?.id == newKim)
        #expect(try store.prospect(.id(lee))?.scanCount == 2)
        #expect(try store.record([pairGroup]) == [.alreadyInLedger(restored: [nil, nil])])

        // A failing batch writes neither its prospects nor its ledger entry.
        let failing = LedgerEntry(
            contentHash: "ff", fileName: "bad.png", outcome: .inserted, prospects: 2, processedAt: date(1))
        expectStoreError({ () throws(StoreError) in
            _ = try store.record([
                LedgeredSightings(
                    entry: failing, sightings: [sighting("Ok", "ok@example.com"), sighting("Bad\0", "bad@example.com")])
            ])
        }) { error in
            if case .database = error { true } else { false }
        }
        #expect(try store.ledgerEntry(contentHash: "ff") == nil)
        #expect(try store.prospect(.email("ok@example.com")) == nil)
        #expect(try store.count() == 3)

        // A ledger entry alone, for a file that held no prospect.
        let rejected = LedgerEntry(
            contentHash: "00", fileName: "blank.png", outcome: .rejected, prospects: 0, processedAt: date(2))
        #expect(try store.record([LedgeredSightings(entry: rejected, sightings: [])]) == [.recorded([])])
        #expect(try store.ledgerEntry(contentHash: "00") == rejected)
    }

    /// A prospect deleted, then brought back by one card of the ledger, regains the phone and organisation a
    /// later card of the ledger carried, without being counted again; what it has is never overwritten.
    @Test(arguments: StoreKind.allCases)
    func contentLoadedBeforeFillsInWhatARestoredProspectLacks(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        func card(_ hash: String, _ sightings: Sighting...) -> LedgeredSightings {
            LedgeredSightings(
                entry: LedgerEntry(
                    contentHash: hash, fileName: "\(hash).png", outcome: .inserted, prospects: sightings.count,
                    processedAt: date(1)),
                sightings: sightings)
        }
        let plain = card("01", sighting("Grace", "grace@example.com", source: "01.png"))
        let full = card(
            "02",
            sighting("Grace H", "grace@example.com", source: "02.png", phone: "+1 555", organization: "Navy"),
            sighting("Ada", "ada@example.com", source: "02.png", phone: "+44 2", organization: "Engines"))
        _ = try store.record([plain, full])
        #expect(try store.delete(.email("grace@example.com")))
        _ = try store.record([card("03", sighting("Ada", "ada@example.com", phone: "+44 9", organization: "Other"))])

        guard case .alreadyInLedger(let restored)? = try store.record([plain]).first, restored.first != nil else {
            Issue.record("Grace was not restored")
            return
        }
        #expect(try store.prospect(.email("grace@example.com"))?.prospect.phone == nil)
        #expect(try store.record([full]) == [.alreadyInLedger(restored: [nil, nil])])
        let grace = try store.prospect(.email("grace@example.com"))
        #expect(
            grace?.prospect
                == Prospect(name: "Grace", email: "grace@example.com", phone: "+1 555", organization: "Navy"))
        #expect(grace?.scanCount == 1)
        let ada = try store.prospect(.email("ada@example.com"))
        #expect(ada?.prospect.phone == "+44 2" && ada?.prospect.organization == "Engines" && ada?.scanCount == 2)
    }

    /// Two watchers handed copies of one file (identical bytes, different names) at the same instant: the
    /// ledger check is inside each transaction, so exactly one of them records the sighting.
    @Test(arguments: StoreKind.allCases)
    func identicalContentRecordedAtOnceByManyWritersCountsOnce(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        _ = try fixture.open()  // migrated before the race, so that only the ledger races
        let rounds = 10
        let location = fixture.location
        let recorded = LockedList<Int>()
        let errors = runOnThreads(4) { index, start in
            let store = try location.open()
            start.wait()
            for round in 0..<rounds {
                let entry = LedgerEntry(
                    contentHash: "hash-\(round)", fileName: "copy\(index).png", outcome: .inserted, prospects: 1,
                    processedAt: Date(timeIntervalSince1970: 1))
                let group = LedgeredSightings(
                    entry: entry,
                    sightings: [sighting("Same", "same\(round)@example.com", source: "copy\(index).png")])
                if case .recorded = try store.record([group]).first { recorded.append(round) }
            }
        }
        #expect(errors == [])
        #expect(recorded.items.sorted() == Array(0..<rounds), "each content recorded by exactly one writer")
        let store = try fixture.open()
        #expect(try store.count() == rounds)
        for round in 0..<rounds {
            #expect(try store.prospect(.email("same\(round)@example.com"))?.scanCount == 1)
        }
    }

    /// An imported list's own "contacted" flag applies to the prospects it creates, in the same insert; a known
    /// prospect keeps the state the team gave it, either way.
    @Test(arguments: StoreKind.allCases)
    func contactedIfNewOnlyAppliesToTheSightingThatCreatesTheProspect(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let known = try store.record([sighting("Ann", "ann@example.com"), sighting("Bob", "bob@example.com")])
        guard case .inserted(let bob)? = known.last else {
            Issue.record("Bob was not inserted: \(known)")
            return
        }
        #expect(try store.setContacted(.id(bob), true))
        func listed(_ name: String, _ email: String, contacted: Bool) -> Sighting {
            Sighting(
                prospect: .init(name: name, email: email), source: "list.csv", seenAt: date(5),
                contactedIfNew: contacted)
        }
        _ = try store.record([
            listed("Ann", "ann@example.com", contacted: true),  // known, not contacted: stays so
            listed("Bob", "bob@example.com", contacted: false),  // known, contacted: stays so
            listed("Cy", "cy@example.com", contacted: true),  // new: starts contacted
            listed("Cy", "CY@example.com", contacted: false),  // the same prospect again: no change
            listed("Di", "di@example.com", contacted: false),
        ])
        let contacted = try store.list(filter: .contacted, sort: .name, reverse: false).map(\.prospect.name)
        #expect(contacted == ["Bob", "Cy"])
        #expect(try store.prospect(.email("di@example.com"))?.isContacted == false)
    }

    @Test(arguments: StoreKind.allCases)
    func filtersByContactedState(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        _ = try store.record([
            sighting("A", "a@example.com"), sighting("B", "b@example.com"), sighting("C", "c@example.com"),
        ])
        #expect(try store.setContacted(.email("b@example.com"), true))
        let names = { (filter: ProspectFilter) throws in
            try store.list(filter: filter, sort: .name, reverse: false).map(\.prospect.name)
        }
        #expect(try names(.everyone) == ["A", "B", "C"])
        #expect(try names(.contacted) == ["B"])
        #expect(try names(.uncontacted) == ["A", "C"])
    }

    @Test(arguments: StoreKind.allCases)
    func sortsByNameAndRecencyInBothDirections(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        // Byte order of the raw names would put "Bob" before "alice", and "Émile" after "Zoë".
        _ = try store.record([
            sighting("Émile", "emile@example.com", at: 3_000), sighting("Bob", "bob@example.com", at: 1_000),
            sighting("alice", "alice@example.com", at: 2_000), sighting("bob", "bob2@example.com", at: 1_000),
            sighting("Zoë", "zoe@example.com", at: 4_000),
        ])
        let emails = { (sort: ProspectSort, reverse: Bool) throws in
            try store.list(filter: .everyone, sort: sort, reverse: reverse).map(\.prospect.email)
        }
        let byName = [
            "alice@example.com", "bob@example.com", "bob2@example.com", "emile@example.com", "zoe@example.com",
        ]
        #expect(try emails(.name, false) == byName)
        #expect(try emails(.name, true) == byName.reversed())
        // Most recent first; "Bob" and "bob" share a time, so the later id (bob2) comes first.
        let byRecent = [
            "zoe@example.com", "emile@example.com", "alice@example.com", "bob2@example.com", "bob@example.com",
        ]
        #expect(try emails(.recent, false) == byRecent)
        #expect(try emails(.recent, true) == byRecent.reversed())
        // One at a time, in the same order, for as long as the caller wants (export streams this way).
        var firstTwo: [String] = []
        try store.forEach(filter: .everyone, sort: .name, reverse: false) { prospect in
            firstTwo.append(prospect.prospect.email)
            return firstTwo.count < 2
        }
        #expect(firstTwo == Array(byName.prefix(2)))
    }

    /// Names sort with their Latin letters folded (Élodie beside Elena, Łukasz beside Luis), identically in both
    /// stores; names that fold alike fall back to the name key, so the order stays total and the same.
    @Test(arguments: StoreKind.allCases)
    func namesSortWithTheirAccentsFolded(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let names = [
            "Zoë", "Élodie", "Emma", "Ødegård", "Olaf", "Ana", "Ángel", "Łukasz", "Luis", "Nguyễn", "Nguyen", "Straße",
            "Strasser", "李小龙",
        ]
        _ = try store.record(names.enumerated().map { sighting($1, "p\($0)@example.com") })
        let sorted = [
            "Ana", "Ángel", "Élodie", "Emma", "Luis", "Łukasz", "Nguyen", "Nguyễn", "Ødegård", "Olaf", "Straße",
            "Strasser", "Zoë", "李小龙",
        ]
        #expect(try store.list(filter: .everyone, sort: .name, reverse: false).map(\.prospect.name) == sorted)
        #expect(try store.list(filter: .everyone, sort: .name, reverse: true).map(\.prospect.name) == sorted.reversed())
    }

    @Test(arguments: StoreKind.allCases)
    func updatesByEmailAndByIdReportUnknownProspects(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let results = try store.record([sighting("A", "a@example.com"), sighting("B", "b@example.com")])
        guard case .inserted(let a) = results[0], case .inserted(let b) = results[1] else {
            Issue.record("unexpected results \(results)")
            return
        }
        #expect(try store.setContacted(.id(a), true))
        #expect(try store.prospect(.id(a))?.isContacted == true)
        #expect(try store.setContacted(.email("A@Example.COM"), false))
        #expect(try store.prospect(.id(a))?.isContacted == false)
        #expect(try store.setContacted(.id(b + 1000), true) == false)
        #expect(try store.setContacted(.email("nobody@example.com"), true) == false)

        #expect(try store.setReminder(.email("b@example.com"), at: date(50_000)))
        #expect(try store.setReminder(.id(a), at: date(10_000)))
        #expect(try store.setReminder(.id(b + 1000), at: date(1)) == false)
        #expect(try store.setReminder(.email("nobody@example.com"), at: nil) == false)
        #expect(try store.prospect(.id(b))?.remindAt == date(50_000))
        #expect(try store.due(at: date(9_999)).map(\.id) == [])
        #expect(try store.due(at: date(10_000)).map(\.id) == [a])
        #expect(try store.due(at: date(60_000)).map(\.id) == [a, b], "earliest first")
        #expect(try store.setReminder(.id(a), at: nil))
        #expect(try store.prospect(.id(a))?.remindAt == nil)
        #expect(try store.due(at: date(60_000)).map(\.id) == [b])

        #expect(try store.delete(.email("B@EXAMPLE.COM")))
        #expect(try store.history(of: b) == [], "history goes with the prospect")
        #expect(try store.delete(.id(b)) == false)
        #expect(try store.delete(.email("b@example.com")) == false)
        #expect(try store.delete(.id(a)))
        #expect(try store.count() == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func neverReusesTheIdOfADeletedProspect(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let first = try store.record([sighting("A", "a@example.com"), sighting("B", "b@example.com")])
        guard case .inserted(let newest) = first.last else {
            Issue.record("unexpected results \(first)")
            return
        }
        #expect(try store.delete(.id(newest)))
        let later = try store.record([sighting("C", "c@example.com")])
        guard case .inserted(let next) = later.first else {
            Issue.record("unexpected results \(later)")
            return
        }
        #expect(next > newest, "an id someone may still be looking at must not come to mean another person")
    }

    @Test(arguments: StoreKind.allCases)
    func keepsDatesToTheMillisecond(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let seen = Date(timeIntervalSince1970: 1_712_345_678.123_456)
        _ = try store.record([Sighting(prospect: .init(name: "T", email: "t@example.com"), source: "s", seenAt: seen)])
        let stored = try #require(try store.prospect(.email("t@example.com")))
        #expect(stored.createdAt.storeMillisecondsForTest == 1_712_345_678_123)
        #expect(stored.createdAt == date(1_712_345_678_123))
    }

    @Test(arguments: StoreKind.allCases)
    func storesHostileTextVerbatim(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        let name = "Robert'); DROP TABLE prospects;--"
        _ = try store.record([sighting(name, "bobby@example.com", source: "x'); DELETE FROM scans;--")])
        _ = try store.record([sighting("Next", "next@example.com")])
        #expect(try store.prospect(.email("bobby@example.com"))?.prospect.name == name)
        #expect(try store.prospect(.email("bobby@example.com'--")) == nil)
        #expect(try store.count() == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func refusesNULCharactersWithAnError(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }  // its folder holds the SQLite file
        let store = try fixture.open()
        expectStoreError({ () throws(StoreError) in _ = try store.record([sighting("Nul\0l", "n@example.com")]) }) {
            error in
            if case .database(_, let message, _) = error { message.contains("NUL") } else { false }
        }
        #expect(try store.count() == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func migratesARealVersion1Store(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        try fixture.executeRaw(Self.version1Script(kind))
        let store = try fixture.open()
        #expect(try store.count() == 2)
        let emile = try #require(try store.prospect(.email("emile@example.com")))
        #expect(emile.prospect == Prospect(name: "Émile Zola", email: "Emile@Example.com"))
        #expect(emile.isContacted)
        #expect(emile.createdAt == date(1_700_000_000_000))
        #expect(emile.lastSeenAt == emile.createdAt)
        #expect(emile.scanCount == 1)
        #expect(try store.history(of: emile.id).count == 1)
        #expect(
            try store.list(filter: .everyone, sort: .name, reverse: false).map(\.prospect.name) == [
                "alice", "Émile Zola",
            ],
            "name keys are filled in")
        #expect(try store.record([sighting("Émile", "EMILE@example.com")]) == [.duplicate(id: emile.id)])
        #expect(try store.prospect(.id(emile.id))?.scanCount == 2)

        // Opening again finds the current version and changes nothing.
        let again = try fixture.open()
        #expect(try again.count() == 2)
    }

    /// Version 5 to 6: the sessions a version 5 store holds stay, and the form-key table comes.
    @Test(arguments: StoreKind.allCases)
    func migratesAVersion5StoreKeepingItsSessions(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        _ = try fixture.open()
        try fixture.executeRaw(
            [
                "DROP TABLE roster_entries", "DROP TABLE events", "DROP TABLE other_phones",
                "DROP INDEX web_sessions_by_account", "DROP TABLE web_keys",
                "INSERT INTO web_sessions (session_key, csrf_token, account, role, created_at, last_used_at) "
                    + "VALUES ('k', 't', 'sam', 'admin', 1, 2)",
            ]
                + (kind == .sqlite
                    ? ["PRAGMA user_version = 5"] : ["UPDATE schema_version SET version = 5"]))
        #expect(try fixture.columns(of: "web_keys").isEmpty)
        let store = try #require(try fixture.open() as? any WebSessionStore)
        #expect(try fixture.columns(of: "web_keys") == ["id", "secret", "created_at"])
        #expect(try store.session(key: "k")?.account == "sam")
        #expect(try store.webKeys(limit: 2).isEmpty)
        try store.addWebKey(secret: "s", at: date(1_780_000_000_000), onlyIfNone: true)
        #expect(try store.webKeys(limit: 2).map(\.id) == [1])
    }

    @Test(arguments: StoreKind.allCases)
    func refusesASchemaNewerThanItKnows(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        _ = try fixture.open()
        switch kind {
        case .sqlite: try fixture.executeRaw(["PRAGMA user_version = 99"])
        case .postgres: try fixture.executeRaw(["UPDATE schema_version SET version = 99"])
        }
        expectStoreError({ () throws(StoreError) in _ = try fixture.open() }) { error in
            error == .schemaTooNew(found: 99, supported: ProspectSQL.schemaVersion)
        }
    }

    /// Another program's table named `prospects`, in a database with no schema version (a CRM's): the store is
    /// refused, saying so, and the table is left as it was. The migration failed halfway as an internal error,
    /// quoting its SQL.
    @Test(arguments: StoreKind.allCases)
    func refusesAnotherProgramsTableNamedProspects(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        try fixture.executeRaw([
            "CREATE TABLE prospects (id integer PRIMARY KEY, company text NOT NULL)",
            "INSERT INTO prospects (id, company) VALUES (1, 'Acme')",
        ])
        expectStoreError({ () throws(StoreError) in _ = try fixture.open() }) { error in
            guard case .unsupportedDatabase(let message) = error else { return false }
            return message.contains("has a table named prospects that is not a prospect store's")
                && message.contains("column") && !message.contains("ALTER") && !error.isWorthWaitingFor
        }
        let left = try fixture.columns(of: "prospects")
        #expect(left == ["id", "company"])
        if case .sqlite(let path) = fixture.location {
            // Header bytes 18 and 19 are 2 once a file is switched to WAL, which outlives the connection.
            let header = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(20)
            #expect(Array(header.suffix(2)) == [1, 1], "the file was switched to WAL")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentWritersOfOneAddressMakeOneProspect(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let threads = 4
        let sightingsPerThread = 20
        let location = fixture.location
        let errors = runOnThreads(threads) { index, start in
            // Every thread opens its own store on the new, empty location: migration races too.
            start.wait()
            let store = try location.open()
            for round in 0..<sightingsPerThread {
                _ = try store.record([
                    sighting("Same", "same@example.com", source: "t\(index)-\(round)", at: Int64(round))
                ])
            }
        }
        #expect(errors == [])
        let store = try fixture.open()
        #expect(try store.count() == 1)
        let stored = try #require(try store.prospect(.email("same@example.com")))
        #expect(stored.scanCount == threads * sightingsPerThread)
        #expect(try store.history(of: stored.id).count == threads * sightingsPerThread)
        #expect(stored.lastSeenAt == date(Int64(sightingsPerThread - 1)))
    }

    /// A version 1 store as the original program left it, written by hand rather than by the store's own code.
    static func version1Script(_ kind: StoreKind) -> [String] {
        switch kind {
        case .sqlite:
            [
                """
                CREATE TABLE prospects (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, email TEXT NOT NULL,
                    email_key TEXT NOT NULL UNIQUE, contacted INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);
                INSERT INTO prospects (name, email, email_key, contacted, created_at) VALUES
                    ('Émile Zola', 'Emile@Example.com', 'emile@example.com', 1, 1700000000000),
                    ('alice', 'alice@example.com', 'alice@example.com', 0, 1700000001000);
                PRAGMA user_version = 1;
                """
            ]
        case .postgres:
            [
                """
                CREATE TABLE prospects (
                    id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name text NOT NULL, email text NOT NULL,
                    email_key text NOT NULL UNIQUE, contacted boolean NOT NULL DEFAULT false, created_at bigint NOT NULL)
                """,
                """
                INSERT INTO prospects (name, email, email_key, contacted, created_at) VALUES
                    ('Émile Zola', 'Emile@Example.com', 'emile@example.com', true, 1700000000000),
                    ('alice', 'alice@example.com', 'alice@example.com', false, 1700000001000)
                """,
                "CREATE TABLE schema_version (version integer NOT NULL)",
                "INSERT INTO schema_version VALUES (1)",
            ]
        }
    }
}

extension Date {
    fileprivate var storeMillisecondsForTest: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}
