import ProspectsCore
import Testing

/// What a code that is no contact may be: an attendee ID, whole or taken by the event's pattern.
@Suite struct BadgeCodeTests {
    @Test func theWholeTextIsTheIDUnlessItCannotBeOne() {
        #expect(BadgeCode.attendeeID(in: "0814847311126137001", pattern: nil) == "0814847311126137001")
        #expect(BadgeCode.attendeeID(in: "  A-1\t", pattern: nil) == "A-1")
        #expect(BadgeCode.attendeeID(in: "two\nlines", pattern: nil) == nil)
        #expect(BadgeCode.attendeeID(in: "   ", pattern: nil) == nil)
        #expect(BadgeCode.attendeeID(in: String(repeating: "9", count: 257), pattern: nil) == nil)
    }

    @Test func aPatternTakesItsNamedGroupAndTheWholeTextIsTheFallback() throws {
        let pattern = try BadgePattern("https://reg\\.example/b/(?<id>[0-9]+)")
        #expect(pattern.group == "id")
        #expect(BadgeCode.attendeeID(in: "https://reg.example/b/42?s=1", pattern: pattern) == "42")
        #expect(BadgeCode.attendeeID(in: "42", pattern: pattern) == "42")
    }

    @Test func aPatternNeedsExactlyOneNamedGroup() {
        #expect(throws: BadgePatternError.needsOneNamedGroup("b/([0-9]+)", found: 0)) {
            try BadgePattern("b/([0-9]+)")
        }
        #expect(throws: BadgePatternError.needsOneNamedGroup("(?<a>x)(?<b>y)", found: 2)) {
            try BadgePattern("(?<a>x)(?<b>y)")
        }
        #expect(throws: BadgePatternError.notARegularExpression("(?<id>[")) { try BadgePattern("(?<id>[") }
        #expect(
            (try? BadgePattern("\\(?<id>x\\)[(?<no>)](?<yes>y)")) != nil, "escaped and bracketed ones are no groups")
    }
}
