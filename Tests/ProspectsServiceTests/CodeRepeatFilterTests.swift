import Foundation
import ProspectsService
import Testing

/// The live camera's `oncePerCode`: a code counts when it comes into view, not while it stays.
@Suite struct CodeRepeatFilterTests {
    let start = Date(timeIntervalSince1970: 1_780_000_000)

    @Test func aCodeInViewCountsOnceAndAgainOnlyAfterItWasGone() {
        var filter = CodeRepeatFilter(forgetAfter: 3)
        #expect(filter.newCodes(["ada"], at: start) == ["ada"])
        #expect(filter.newCodes(["ada"], at: start + 1) == [])
        #expect(filter.newCodes([], at: start + 2) == [], "a frame that misses it does not forget it")
        #expect(filter.newCodes(["ada"], at: start + 3.5) == [], "seen 2.5 s ago")
        #expect(filter.newCodes(["ada", "grace"], at: start + 4) == ["grace"])
        #expect(filter.newCodes(["ada"], at: start + 9) == [], "frames that show it, however slowly, keep it")
        #expect(filter.newCodes([], at: start + 12.5) == [], "a frame without ada 3.5 s after it: forgotten")
        #expect(filter.newCodes(["ada"], at: start + 13) == ["ada"], "gone for over 3 s")
    }
}
