import Foundation
import Glibc

/// Reads the times people and programs write: ISO 8601 in its extended (`2026-12-01T14:30:00.250+01:00`) and
/// basic (`20261201T143000Z`, as vCard `REV` writes it) forms, with a space for the `T`, without seconds, or without
/// a zone (then local time), and a date alone (then `defaultHour` local time). A zone may also be named the way
/// `list` shows it (`2026-12-01 14:30 CET`) when it is the local zone's name at that time.
///
/// Local time is the C library's, from `TZ`, as `list` and `show` print it: Foundation's `TimeZone.current` reads
/// only some of the forms `TZ` takes (not `:Europe/Paris`, a file path, or a POSIX rule). Strict about the
/// calendar, unlike Foundation's parser: `2026-02-30` is no date, not the 2nd of March. `timeZone`, when given,
/// is the zone of a time written without one instead (a browser's, which the server's `TZ` knows nothing of).
public enum Timestamp {
    public static func parse(_ text: String, defaultHour: Int = 0, timeZone: TimeZone? = nil) -> Date? {
        // Spaces and tabs around the text are no part of it (a spreadsheet cell often ends with one).
        var scanner = Scanner(Array(text.trimmingASCIISpaces().utf8))
        guard let year = scanner.digits(4) else { return nil }
        // With dashes and colons, a part may have one digit (`2026-1-5 9:30`), as people type it.
        let extended = scanner.take(UInt8(ascii: "-"))
        let width = extended ? 1...2 : 2...2
        guard let month = scanner.digits(width), !extended || scanner.take(UInt8(ascii: "-")),
            let day = scanner.digits(width)
        else { return nil }

        var hour = defaultHour
        var minute = 0
        var second = 0
        var fraction = 0.0
        var offset: Int?
        var zoneName: String?
        if scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: " ")) {
            scanner.skipSpaces()
            guard let h = scanner.digits(width), !extended || scanner.take(UInt8(ascii: ":")),
                let m = scanner.digits(width)
            else { return nil }
            hour = h
            minute = m
            if !extended || scanner.take(UInt8(ascii: ":")) {
                if let s = scanner.digits(2) {
                    second = s
                } else if extended {
                    return nil
                }
            }
            if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                guard let (value, count) = scanner.number() else { return nil }
                fraction = Double(value) / pow(10, Double(min(count, 18)))
            }
            scanner.skipSpaces()
            if !scanner.atEnd {
                if let seconds = scanner.zoneOffset() {
                    offset = seconds
                } else if let name = scanner.letters() {
                    zoneName = name
                } else {
                    return nil
                }
            }
        }
        guard scanner.atEnd, (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute),
            (0...59).contains(second)
        else { return nil }

        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds: Int
        if let offset {
            var utc = parts
            seconds = Int(timegm(&utc)) - offset
            // timegm rolls 2026-02-30 over to 2026-03-02, as mktime does below; a day that does not exist is a
            // typo, not a wish.
            guard utc.tm_mon == parts.tm_mon, utc.tm_mday == parts.tm_mday else { return nil }
        } else if let timeZone {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let wanted = DateComponents(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            guard let date = calendar.date(from: wanted) else { return nil }
            let found = calendar.dateComponents([.month, .day], from: date)
            guard found.month == month, found.day == day else { return nil }
            if let zoneName, timeZone.abbreviation(for: date) != zoneName, timeZone.identifier != zoneName {
                return nil
            }
            seconds = Int(date.timeIntervalSince1970.rounded(.down))
        } else {
            var local = parts
            local.tm_isdst = -1  // let the zone's rules say whether summer time applies
            seconds = Int(mktime(&local))
            guard local.tm_mon == parts.tm_mon, local.tm_mday == parts.tm_mday else { return nil }
            if let zoneName {
                // Only the local zone's own name for that moment: `CET` in Paris in winter, not in July.
                guard local.tm_zone.map({ String(cString: $0) }) == zoneName else { return nil }
            }
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }

    /// A cursor over ASCII bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpaces() {
            while take(UInt8(ascii: " ")) {}
        }

        /// Exactly `count` digits, as a number.
        mutating func digits(_ count: Int) -> Int? {
            digits(count...count)
        }

        /// As many digits as `counts` allows, at least its lower bound, as a number.
        mutating func digits(_ counts: ClosedRange<Int>) -> Int? {
            var value = 0
            var count = 0
            while count < counts.upperBound, index + count < bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + count])
            {
                value = value * 10 + Int(bytes[index + count] - UInt8(ascii: "0"))
                count += 1
            }
            guard count >= counts.lowerBound else { return nil }
            index += count
            return value
        }

        /// A run of digits (the first 18 count): its value and length.
        mutating func number() -> (Int, Int)? {
            var value = 0
            var count = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                if count < 18 { value = value * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                count += 1
                index += 1
            }
            return count == 0 ? nil : (value, count)
        }

        /// A run of ASCII letters, as a zone's abbreviation is written.
        mutating func letters() -> String? {
            let start = index
            while index < bytes.count,
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[index] & 0xDF)
            {
                index += 1
            }
            return index == start ? nil : String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// `Z`, `UTC`, `GMT`, `+01`, `+0100` or `+01:00`, in seconds east of UTC.
        mutating func zoneOffset() -> Int? {
            if take(UInt8(ascii: "Z")) { return 0 }
            for name in ["UTC", "GMT"] where bytes[index...].starts(with: name.utf8) {
                index += 3
                return 0
            }
            let sign: Int
            if take(UInt8(ascii: "+")) {
                sign = 1
            } else if take(UInt8(ascii: "-")) {
                sign = -1
            } else {
                return nil
            }
            guard let hours = digits(2), hours <= 18 else { return nil }
            var minutes = 0
            if take(UInt8(ascii: ":"))
                || (index < bytes.count && bytes[index] >= UInt8(ascii: "0")
                    && bytes[index] <= UInt8(ascii: "9"))
            {
                guard let m = digits(2), m <= 59 else { return nil }
                minutes = m
            }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
