import Foundation
import ProspectsExchange
import ProspectsService
import SafeHTML

/// Times in the browser's time zone: forms carry the zone the page's script read (`Intl`), so that a reminder set
/// for 09:00 is the staffer's 09:00; times shown carry their UTC instant, which the script writes out in that zone.
/// Without the script the server's zone applies, both ways.
enum BrowserTime {
    /// The form field that carries the browser's zone (`Europe/Paris`).
    static let fieldName = "tz"

    /// The zone a form sent, when it is one the system knows; nil (the server's zone) otherwise.
    static func zone(_ text: String?) -> TimeZone? {
        guard let text, !text.isEmpty, text.utf8.count <= 64 else { return nil }
        return TimeZone(identifier: text)
    }

    /// The hidden field the script fills with the browser's zone.
    static var field: HTML {
        HTML.input(.type("hidden"), .name(fieldName), .value(""))
    }

    /// `date` as the server writes it (`2026-12-01 09:00 CET`), with its instant for the script to rewrite.
    static func time(_ date: Date) -> HTML {
        let instant = ISO8601.string(date)
        return HTML.time(.attribute("datetime", instant), .data("utc", instant)) { LocalTime.text(date) }
    }
}
