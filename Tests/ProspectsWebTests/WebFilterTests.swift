import Foundation
import ProspectStore
import ProspectsCore
import Testing
import WebTestSupport

@testable import ProspectsService

/// The list's rating, tag, event and collector filters by raw requests: each a GET parameter kept in every link.
@Suite struct WebFilterTests {
    @Test func theListFiltersByRatingTagEventAndCollectorAndKeepsThemInItsLinks() throws {
        let web = try WebFixture(leads: sampleLeads)
        let store = try web.store()
        _ = try store.setRating(.email("ada@example.org"), .hot)
        _ = try store.setRating(.email("grace@example.org"), .hot)
        _ = try store.setRating(.email("person1@example.com"), .cold)
        _ = try store.changeTags(.email("grace@example.org"), adding: ["navy"], removing: [])
        _ = try store.record([
            Sighting(
                prospect: Prospect(name: "Person 2", email: "person2@example.com"), source: "x", seenAt: Date(),
                event: "Expo", collectedBy: "sam")
        ])
        _ = try store.setContacted(.email("grace@example.org"), true)
        let hot = try web.get("/?rating=hot").text
        #expect(WebPagesTests.rowNames(hot) == ["Ada Lovelace", "Grace Hopper"])
        #expect(hot.contains("Everyone <span class=\"count\">2</span>"), "counts follow the filters")
        #expect(hot.contains("Contacted <span class=\"count\">1</span>"))
        #expect(hot.contains("href=\"/?tab=contacted&amp;rating=hot\""), "tabs keep the filter")
        #expect(hot.contains("href=\"/?sort=recent&amp;rating=hot\""), "sort links keep the filter")
        #expect(hot.contains("<option value=\"hot\" selected>"))
        #expect(hot.contains("<td data-label=\"Rating\" class=\"rating rating-hot\">hot</td>"), "rows show the rating")
        #expect(WebPagesTests.rowNames(try web.get("/?rating=hot&tag=NAVY").text) == ["Grace Hopper"])
        #expect(WebPagesTests.rowNames(try web.get("/?event=Expo").text) == ["Person 2"])
        #expect(WebPagesTests.rowNames(try web.get("/?by=sam").text) == ["Person 2"])
        #expect(WebPagesTests.rowNames(try web.get("/?rating=cold&q=person").text) == ["Person 1"])
        #expect(try web.get("/?tag=nothing").text.contains("No lead matches these filters."))
        let many = (1...60).map { Prospect(name: "Lead \(100 + $0)", email: "l\($0)@example.com") }
        let paged = try WebFixture(leads: many)
        for lead in many { _ = try paged.store().setRating(.email(lead.email), .warm) }
        #expect(try paged.get("/?rating=warm").text.contains("href=\"/?rating=warm&amp;page=2\" rel=\"next\""))
    }
}
