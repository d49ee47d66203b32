import Foundation
import HTTPServer
import ProspectStore
import ProspectsCore
import ProspectsIngest
import ProspectsService
import Testing

@testable import ProspectsWeb

/// The pure decisions of the web front-end, without a server.
@Suite struct WebDecisionTests {
    @Test func loopbackAnswersToItsNamesOnly() {
        let check = HostCheck(boundHost: "127.0.0.1")
        for allowed in ["127.0.0.1:8080", "localhost:8080", "localhost", "[::1]:8080", "LocalHost:1"] {
            #expect(check.allows(allowed), "\(allowed)")
        }
        for refused in ["attacker.example:8080", "127.0.0.1.attacker.example", "", "localhost.:8080", "[::2]:80"] {
            #expect(!check.allows(refused), "\(refused)")
        }
        #expect(!check.allows(nil))
        #expect(HostCheck.isLoopback("127.1.2.3"))
        #expect(HostCheck.isLoopback("::1"))
        #expect(!HostCheck.isLoopback("0.0.0.0"))
        #expect(!HostCheck.isLoopback("192.168.1.10"))
        #expect(!HostCheck.isLoopback("127.0.0.1.example"))
    }

    @Test func everyListStateIsALinkThatReadsBackAsIt() {
        let states = [
            ListState(),
            ListState(tab: .contacted, sort: .recent, reverse: true, search: "Zoë & co?", page: 3),
            ListState(tab: .uncontacted, search: "a+b=c"),
            ListState(rating: .hot, tag: "wants a demo", event: "Expo & Co", collectedBy: "sam@booth", page: 2),
            ListState(rating: ProspectRating.none),
        ]
        for state in states {
            let url = state.url
            let query = url.dropFirst(2).split(separator: "&").map { item in
                let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                return HTTPField(parts[0], parts[1].removingPercentEncoding ?? "")
            }
            #expect(ListState(query: query) == state, "\(url)")
        }
        #expect(ListState().url == "/")
        #expect(ListState(query: [HTTPField("tab", "bogus"), HTTPField("page", "-4")]) == ListState())
        #expect(ListState(query: [HTTPField("rating", "lukewarm"), HTTPField("tag", "  ")]) == ListState())
        let filtered = ListState(rating: .cold, tag: "x", event: "e", collectedBy: "b").query(pageSize: 50)
        #expect(filtered.rating == .cold && filtered.tag == "x" && filtered.event == "e" && filtered.collectedBy == "b")
        let page = ListState(page: 3).query(pageSize: 50)
        #expect(page.offset == 100)
        #expect(page.limit == 50)
    }

    @Test func tokensAreRandomAndComparedWhole() {
        let first = SessionStore.randomToken()
        #expect(first.count == 64)
        #expect(first != SessionStore.randomToken())
        #expect(SessionStore.sameToken(first, first))
        #expect(!SessionStore.sameToken(first, String(first.dropLast()) + "x"))
        #expect(!SessionStore.sameToken(first, ""))
    }

    @Test func aClientsFileNameIsNeverAPath() {
        #expect(UploadFolder.safeFileName("../../etc/passwd") == "_.._etc_passwd")
        #expect(UploadFolder.safeFileName("card 1.png") == "card_1.png")
        #expect(UploadFolder.safeFileName("..") == "picture")
        #expect(!UploadFolder.safeFileName("a/b").contains("/"))
    }
}
