import Foundation
import ProspectsExchange

/// Parses the times `remind` accepts: absolute dates (`--at`) and durations from now (`--in`).
public enum ReminderTime {
    /// Reminders fall within years 1 to 9999: past that, dates no longer print as `YYYY-MM-DD` and seconds overflow
    /// the store's integers.
    public static let range =
        Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799)

    /// The longest `--in`: a century, far past any reminder and far from the end of `range`.
    public static let longestDuration: TimeInterval = 100 * 366 * 86_400

    /// `2026-12-01T09:00:00Z` (any ISO 8601 with zone), `2026-12-01 09:00` (local time), or `2026-12-01` (09:00 local,
    /// the app's "tomorrow morning" habit); see `Timestamp`. A time without a zone is in `timeZone` when given (a
    /// browser's), else the local time (`TZ`).
    public static func parseDate(_ text: String, timeZone: TimeZone? = nil) -> Date? {
        guard let date = Timestamp.parse(text, defaultHour: 9, timeZone: timeZone), range.contains(date) else {
            return nil
        }
        return date
    }

    /// `90s`, `30m`, `2h`, `1d`, `1w`, or a sum such as `1h30m`. Returns seconds.
    public static func parseDuration(_ text: String) -> TimeInterval? {
        var total: TimeInterval = 0
        var number = ""
        var sawUnit = false
        for character in text {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Double(number) else { return nil }
            let unit: TimeInterval
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            case "w": unit = 604_800
            default: return nil
            }
            total += value * unit
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit, total > 0, total <= longestDuration else { return nil }
        return total
    }

    /// A reminder's "in" — `remind --in` and the lead page's field, one reading for both: a compact duration
    /// (`90s`, `2h`, `1h30m`) or as said (`3 days`, `2 hours`, `1 week`), from `now` in `timeZone`.
    public static func parseFromNow(_ text: String, now: Date, timeZone: TimeZone) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let seconds = parseDuration(text) { return now.addingTimeInterval(seconds) }
        return parse("in " + text, now: now, timeZone: timeZone)
    }

    /// Any form `remind --at` takes: the dates of `parseDate`, or the way people say it, read at `now` in
    /// `timeZone` — `tomorrow 9:00`, `today 17:30`, `friday` (the next Friday, not today, at 09:00), `fri 2pm`,
    /// `next monday 8:15`, `in 3 days` (the same time of day, across a clock change), `in 2 hours`, `in 1h30m`.
    public static func parse(_ text: String, now: Date, timeZone: TimeZone) -> Date? {
        if let date = parseDate(text) { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return nil }
        let date: Date?
        if first == "in" {
            date = after(Array(words.dropFirst()), now: now, calendar: calendar)
        } else {
            date = onDay(words, now: now, calendar: calendar)
        }
        guard let date, range.contains(date) else { return nil }
        return date
    }

    /// `3 days`, `2 hours`, `90 minutes`, `1 week`, or a compact duration (`1h30m`), from `now`.
    private static func after(_ words: [String], now: Date, calendar: Calendar) -> Date? {
        if words.count == 1 { return parseDuration(words[0]).map { now.addingTimeInterval($0) } }
        guard words.count == 2, let count = Int(words[0]), count > 0, count <= 36_600 else { return nil }
        let unit = words[1].hasSuffix("s") ? String(words[1].dropLast()) : words[1]
        switch unit {
        case "second", "sec": return now.addingTimeInterval(TimeInterval(count))
        case "minute", "min": return now.addingTimeInterval(TimeInterval(count) * 60)
        case "hour": return now.addingTimeInterval(TimeInterval(count) * 3600)
        case "day": return calendar.date(byAdding: .day, value: count, to: now)
        case "week": return calendar.date(byAdding: .day, value: 7 * count, to: now)
        case "month": return calendar.date(byAdding: .month, value: count, to: now)
        default: return nil
        }
    }

    /// `today`, `tomorrow` or a weekday (`friday`, `fri`, `next friday`), and a time of day (09:00 when none).
    private static func onDay(_ words: [String], now: Date, calendar: Calendar) -> Date? {
        var words = words[...]
        if words.first == "next" { words = words.dropFirst() }
        guard let dayWord = words.popFirst(), words.count <= 1 else { return nil }
        var hour = 9
        var minute = 0
        if let time = words.first {
            guard let (h, m) = timeOfDay(time) else { return nil }
            (hour, minute) = (h, m)
        }
        let today = calendar.startOfDay(for: now)
        let days: Int
        switch dayWord {
        case "today": days = 0
        case "tomorrow": days = 1
        default:
            guard let weekday = weekdays.firstIndex(where: { $0 == dayWord || $0.prefix(3) == dayWord }) else {
                return nil
            }
            // Calendar weekdays run 1 (Sunday) to 7; the day named is always after today.
            let current = calendar.component(.weekday, from: now) - 1
            days = (weekday - current + 6) % 7 + 1
        }
        guard let day = calendar.date(byAdding: .day, value: days, to: today) else { return nil }
        return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day)
    }

    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// `9`, `9:00`, `14:30`, `9am`, `2pm`, `12:15am`.
    private static func timeOfDay(_ text: String) -> (hour: Int, minute: Int)? {
        var text = Substring(text)
        var meridiem: String?
        for suffix in ["am", "pm"] where text.hasSuffix(suffix) {
            meridiem = suffix
            text = text.dropLast(2)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count),
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            parts[0].count <= 2, var hour = Int(parts[0])
        else { return nil }
        var minute = 0
        if parts.count == 2 {
            guard parts[1].count == 2, let m = Int(parts[1]), m < 60 else { return nil }
            minute = m
        }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        guard hour < 24 else { return nil }
        return (hour, minute)
    }
}
