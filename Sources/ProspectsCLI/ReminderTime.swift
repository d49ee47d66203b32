import Foundation
import ProspectsExchange

/// Parses the times `remind` accepts: absolute dates (`--at`) and durations from now (`--in`).
enum ReminderTime {
    /// Reminders fall within years 1 to 9999: past that, dates no longer print as `YYYY-MM-DD` and seconds overflow
    /// the store's integers.
    static let range = Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799)

    /// The longest `--in`: a century, far past any reminder and far from the end of `range`.
    static let longestDuration: TimeInterval = 100 * 366 * 86_400

    /// `2026-12-01T09:00:00Z` (any ISO 8601 with zone), `2026-12-01 09:00` (local time), or `2026-12-01` (09:00 local,
    /// the app's "tomorrow morning" habit).
    static func parseDate(_ text: String, timeZone: TimeZone = .current) -> Date? {
        if let date = ISO8601.parse(text) { return range.contains(date) ? date : nil }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard let day = parts.first, parts.count <= 2 else { return nil }
        let ymd = day.split(separator: "-").compactMap { Int($0) }
        guard ymd.count == 3 else { return nil }
        var hour = 9
        var minute = 0
        if parts.count == 2 {
            let hm = parts[1].split(separator: ":").compactMap { Int($0) }
            guard hm.count == 2 || hm.count == 3 else { return nil }
            hour = hm[0]
            minute = hm[1]
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: ymd[0], month: ymd[1], day: ymd[2], hour: hour, minute: minute)
        guard (1...12).contains(ymd[1]), (1...31).contains(ymd[2]), (0...23).contains(hour), (0...59).contains(minute),
            let date = calendar.date(from: components), range.contains(date)
        else { return nil }
        // The calendar rolls 2026-02-30 over to 2026-03-02; a day that does not exist is a typo, not a wish.
        let landed = calendar.dateComponents([.year, .month, .day], from: date)
        guard landed.year == ymd[0], landed.month == ymd[1], landed.day == ymd[2] else { return nil }
        return date
    }

    /// `90s`, `30m`, `2h`, `1d`, `1w`, or a sum such as `1h30m`. Returns seconds.
    static func parseDuration(_ text: String) -> TimeInterval? {
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
}
