import Foundation

/// A calendar day, as an event's first and last days are given (`2026-03-18`): no time, no zone.
public struct EventDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Reads `YYYY-MM-DD`; nil for anything else, or a day the month does not have (2026-02-30).
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), day >= 1
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard day <= days else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`, the form the stores keep and the commands print.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    public static func < (left: EventDay, right: EventDay) -> Bool {
        (left.year, left.month, left.day) < (right.year, right.month, right.day)
    }
}

/// An event leads are collected at (a trade fair): the name every scan's `event` holds, and what is known of it.
/// A name that `--event` gives for the first time becomes an event of its own as its first scan is recorded.
public struct Event: Sendable, Hashable {
    /// The name, exactly as scans hold it; the key.
    public var name: String
    public var starts: EventDay?
    public var ends: EventDay?
    public var location: String?
    /// The regular expression, with one named group, that takes an attendee ID out of a badge's text (a URL).
    public var badgePattern: String?
    /// When the event was added, or first named by a scan.
    public var createdAt: Date

    public init(
        name: String, starts: EventDay? = nil, ends: EventDay? = nil, location: String? = nil,
        badgePattern: String? = nil, createdAt: Date
    ) {
        self.name = name
        self.starts = starts
        self.ends = ends
        self.location = location
        self.badgePattern = badgePattern
        self.createdAt = createdAt
    }
}
