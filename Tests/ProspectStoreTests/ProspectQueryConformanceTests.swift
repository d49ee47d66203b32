import Foundation
import ProspectsCore
import Testing

@testable import ProspectStore

/// Search, filters, paging, natural name order and edits, run unchanged against both stores.
@Suite("ProspectStore conformance: queries and edits")
struct ProspectQueryConformanceTests {
    /// Five prospects with something for each condition to find; ids by name.
    func fill(_ store: any ProspectStore) throws -> [String: Int64] {
        let people: [(Prospect, event: String?, by: String?)] = [
            (Prospect(name: "Jürgen Müller", email: "jm@example.de", organization: "Bäckerei Ost"), "Fair", "ana"),
            (Prospect(name: "Person 10", email: "p10@example.com", title: "Chief Éngineer"), nil, "bo"),
            (Prospect(name: "Person 2", email: "p2@example.com"), "Expo", nil),
            (Prospect(name: "person 1", email: "p1@example.com", note: "wants a DEMO of Straße"), nil, nil),
            (Prospect(name: "Zoë", email: "zoe@muller.example"), nil, nil),
        ]
        var ids: [String: Int64] = [:]
        for (index, person) in people.enumerated() {
            let sighting = Sighting(
                prospect: person.0, source: "s\(index)", seenAt: date(Int64(1_000 * (index + 1))), event: person.event,
                collectedBy: person.by)
            guard case .inserted(let id)? = try store.record([sighting]).first else { throw StoreError.corrupt("") }
            ids[person.0.name] = id
        }
        return ids
    }

    func names(_ store: any ProspectStore, _ query: ProspectQuery) throws -> [String] {
        try store.list(query).map(\.prospect.name)
    }

    @Test(arguments: StoreKind.allCases)
    func namesSortNaturallyAndFolded(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        _ = try fill(store)
        let order = ["Jürgen Müller", "person 1", "Person 2", "Person 10", "Zoë"]
        #expect(try names(store, ProspectQuery()) == order)
        #expect(try names(store, ProspectQuery(reverse: true)) == order.reversed())
        #expect(try names(store, ProspectQuery(limit: 2, offset: 1)) == ["person 1", "Person 2"])
        #expect(try names(store, ProspectQuery(offset: 3)) == ["Person 10", "Zoë"])
        #expect(try names(store, ProspectQuery(limit: 0)) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func searchIgnoresCaseAndAccentsInEveryField(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let ids = try fill(store)
        #expect(try names(store, ProspectQuery(search: "muller")) == ["Jürgen Müller", "Zoë"])  // name, address
        #expect(try names(store, ProspectQuery(search: "MÜLLER jürgen")) == ["Jürgen Müller"])  // every word
        #expect(try names(store, ProspectQuery(search: "backerei")) == ["Jürgen Müller"])  // organisation
        #expect(try names(store, ProspectQuery(search: "engineer")) == ["Person 10"])  // title
        #expect(try names(store, ProspectQuery(search: "strasse demo")) == ["person 1"])  // note
        #expect(try store.changeTags(.id(try #require(ids["Person 2"])), adding: ["Année"], removing: []))
        #expect(try names(store, ProspectQuery(search: "annee")) == ["Person 2"])  // tag
        #expect(try names(store, ProspectQuery(search: "50%_")) == [])  // no pattern characters
        #expect(try names(store, ProspectQuery(search: "p1@EXAMPLE")) == ["person 1"])
    }

    @Test(arguments: StoreKind.allCases)
    func filtersCombine(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let ids = try fill(store)
        let jurgen = try #require(ids["Jürgen Müller"])
        let p2 = try #require(ids["Person 2"])
        #expect(try store.setRating(.id(jurgen), .hot))
        #expect(try store.setRating(.id(p2), .hot))
        #expect(try store.setContacted(.id(p2), true))
        #expect(try store.changeTags(.id(p2), adding: ["VIP"], removing: []))
        #expect(try names(store, ProspectQuery(rating: .hot)) == ["Jürgen Müller", "Person 2"])
        #expect(try names(store, ProspectQuery(rating: ProspectRating.none)).count == 3)
        #expect(try names(store, ProspectQuery(filter: .uncontacted, rating: .hot)) == ["Jürgen Müller"])
        #expect(try names(store, ProspectQuery(tag: "vip")) == ["Person 2"])
        #expect(try names(store, ProspectQuery(event: "Fair")) == ["Jürgen Müller"])
        #expect(try names(store, ProspectQuery(collectedBy: "bo")) == ["Person 10"])
        // A later scan's event and collector count too.
        let later = Sighting(
            prospect: Prospect(name: "Zoë", email: "zoe@muller.example"), source: "again", seenAt: date(9_000),
            event: "Fair", collectedBy: "bo")
        _ = try store.record([later])
        #expect(try names(store, ProspectQuery(event: "Fair")) == ["Jürgen Müller", "Zoë"])
        #expect(try names(store, ProspectQuery(collectedBy: "bo", sort: .recent)) == ["Zoë", "Person 10"])
    }

    /// Pages most recent first (or oldest first) follow the creation times, not the ids, and are the same pages the
    /// whole list cuts: SQLite reads the rows in id order for these, and here the ids follow no order of time.
    @Test(arguments: StoreKind.allCases)
    func recentPagesFollowCreationNotIDs(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let times: [Int64] = [5, 1, 9, 3, 7, 7, 2, 8, 4, 6, 0, 9]
        for (index, time) in times.enumerated() {
            let prospect = Prospect(name: "P\(index)", email: "p\(index)@example.com")
            _ = try store.record([Sighting(prospect: prospect, source: "s\(index)", seenAt: date(1_000 + time))])
        }
        #expect(try store.setContacted(.email("p2@example.com"), true))
        #expect(try store.setContacted(.email("p5@example.com"), true))
        for reverse in [false, true] {
            for filter in [ProspectFilter.everyone, .contacted, .uncontacted] {
                let whole = try names(store, ProspectQuery(filter: filter, sort: .recent, reverse: reverse))
                var paged: [String] = []
                for offset in stride(from: 0, to: whole.count + 3, by: 3) {
                    paged += try names(
                        store, ProspectQuery(filter: filter, sort: .recent, reverse: reverse, limit: 3, offset: offset))
                }
                #expect(paged == whole, "\(filter) \(reverse)")
            }
        }
        let newest = try names(store, ProspectQuery(sort: .recent, limit: 4))
        // Equal times: the later id first.
        #expect(newest == ["P11", "P2", "P7", "P5"])
        #expect(try names(store, ProspectQuery(sort: .recent, reverse: true, limit: 3)) == ["P10", "P1", "P6"])
        #expect(try names(store, ProspectQuery(filter: .contacted, sort: .recent)) == ["P2", "P5"])
    }

    /// The tab counts are the two counts `count(_:)` makes, for every kind of condition, the query's own tab ignored.
    @Test(arguments: StoreKind.allCases)
    func tabCountsAreTheCountsOfEachTab(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let ids = try fill(store)
        #expect(try store.setContacted(.id(try #require(ids["Jürgen Müller"])), true))
        #expect(try store.setContacted(.id(try #require(ids["Person 2"])), true))
        #expect(try store.setRating(.id(try #require(ids["Person 2"])), .hot))
        #expect(try store.changeTags(.id(try #require(ids["Zoë"])), adding: ["VIP"], removing: []))
        let queries = [
            ProspectQuery(), ProspectQuery(filter: .uncontacted), ProspectQuery(search: "muller"),
            ProspectQuery(filter: .contacted, search: "person"), ProspectQuery(rating: .hot), ProspectQuery(tag: "vip"),
            ProspectQuery(event: "Fair"), ProspectQuery(collectedBy: "bo"), ProspectQuery(search: "nobody"),
            ProspectQuery(search: "person", limit: 1, offset: 1),
        ]
        for query in queries {
            var all = query
            all.filter = .everyone
            var contacted = all
            contacted.filter = .contacted
            let counts = try store.tabCounts(query)
            #expect(counts.everyone == (try store.count(all)), "\(query)")
            #expect(counts.contacted == (try store.count(contacted)), "\(query)")
        }
        #expect(try store.tabCounts(ProspectQuery()) == (everyone: 5, contacted: 2))
        #expect(try store.tabCounts(ProspectQuery(search: "person")) == (everyone: 3, contacted: 1))
        #expect(try store.tabCounts(ProspectQuery(search: "nobody")) == (everyone: 0, contacted: 0))
    }

    @Test(arguments: StoreKind.allCases)
    func anEditReKeysTheProspectAndRefusesAnotherOnesAddress(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { withExtendedLifetime(fixture) {} }
        let store = try fixture.open()
        let ids = try fill(store)
        let p2 = try #require(ids["Person 2"])
        let outcome = try store.edit(
            .id(p2), ProspectEdit(name: "Person 20", email: "New@Example.com", phone: "+1 2", title: .some(nil)))
        guard case .edited(let edited) = outcome else {
            Issue.record("expected an edit, got \(outcome)")
            return
        }
        #expect(edited.prospect == Prospect(name: "Person 20", email: "New@Example.com", phone: "+1 2"))
        #expect(edited.key == "new@example.com")
        #expect(try store.prospect(.email("new@example.com"))?.id == p2)
        #expect(try store.prospect(.email("p2@example.com")) == nil)
        #expect(try names(store, ProspectQuery()) == ["Jürgen Müller", "person 1", "Person 10", "Person 20", "Zoë"])
        // A new scan of the old address is someone new; of the new one, a duplicate.
        #expect(try store.record([sighting("Person 20", "NEW@example.com")]) == [.duplicate(id: p2)])

        let clash = try store.edit(.id(p2), ProspectEdit(email: "P10@example.com"))
        let p10ID = try #require(ids["Person 10"])
        let p10 = try #require(try store.prospect(.id(p10ID)))
        #expect(clash == .emailTaken(by: p10))
        #expect(try store.prospect(.id(p2))?.prospect.email == "New@Example.com")
        #expect(try store.edit(.id(p2 + 100), ProspectEdit(name: "Nobody")) == .notFound)
        // A different spelling of its own address is no clash.
        guard case .edited(let respelled) = try store.edit(.id(p2), ProspectEdit(email: "new@EXAMPLE.com")) else {
            Issue.record("expected an edit")
            return
        }
        #expect(respelled.prospect.email == "new@EXAMPLE.com")
    }
}
