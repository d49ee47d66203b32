import Foundation
import ProspectsExchange
import Testing

/// The times `import` and `remind --at` read, checked against UTC instants (zones given) and against each other
/// (local times, whatever the machine's zone).
@Suite struct TimestampTests {
    let noonUTC = Date(timeIntervalSince1970: 1_706_702_400)  // 2024-01-31T12:00:00Z

    @Test func isoFormsWithAZone() {
        for text in [
            "2024-01-31T12:00:00Z", "2024-01-31T12:00Z", "2024-01-31 12:00:00 UTC", "20240131T120000Z",
            "2024-01-31T13:00:00+01:00", "2024-01-31T13:00+0100", "2024-01-31T13:00:00+01", "2024-01-31T07:00:00-05",
            " 2024-01-31T12:00:00Z\t", "2024-01-31T13:00+01 ",
        ] {
            #expect(Timestamp.parse(text) == noonUTC, "\(text)")
        }
        #expect(Timestamp.parse("2024-01-31T12:00:00.250Z") == noonUTC.addingTimeInterval(0.25))
    }

    @Test func localFormsAgreeWithEachOther() throws {
        let nine = try #require(Timestamp.parse("2026-12-01T09:00:00"))
        for text in ["2026-12-01 09:00", "2026-12-01 9:00", "2026-12-1 09:00", "2026-12-01 ", "2026-12-01\t"] {
            #expect(Timestamp.parse(text, defaultHour: 9) == nine, "\(text)")
        }
        #expect(Timestamp.parse("2026-1-5", defaultHour: 9) == Timestamp.parse("2026-01-05 09:00"))
    }

    @Test func whatIsNoTimeIsRefused() {
        for text in [
            "", "call next week", "2024-02-30", "2023-02-29", "2024-13-01", "2024-01-31T24:00", "2024-01-31T12:60",
            "2024-01-31T12:00:00+19", "31/01/2024", "2024-01-31T12", "2024-01-31T12:00:", "20240131T1200001",
        ] {
            #expect(Timestamp.parse(text) == nil, "\(text)")
        }
        #expect(Timestamp.parse("2024-02-29") != nil, "a leap day")
    }
}
