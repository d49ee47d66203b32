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
    /// the app's "tomorrow morning" habit); see `Timestamp`.
    public static func parseDate(_ text: String) -> Date? {
        guard let date = Timestamp.parse(text, defaultHour: 9), range.contains(date) else {
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
}
