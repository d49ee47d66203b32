import Foundation
import Glibc

/// Times as people read them in every front-end.
public enum LocalTime {
    /// `2026-11-30 11:05 CET`: the local time (`TZ`), the way `remind --at` reads one, to the minute, which is
    /// enough for a person reading a list. (JSON keeps ISO 8601 in UTC.)
    public static func text(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else {
            let iso = date.formatted(Date.ISO8601FormatStyle())  // 2026-11-30T10:05:07Z
            return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5)) + " UTC"
        }
        // tzdata's own abbreviation, as `date` prints it (Foundation would say `GMT+1` for CET); zones that have
        // none (`+0545`) get their offset spelled out.
        var zone = local.tm_zone.map { String(cString: $0) } ?? ""
        if zone.isEmpty || !zone.allSatisfy(\.isLetter) {
            let minutes = abs(local.tm_gmtoff) / 60
            zone =
                minutes == 0
                ? "UTC" : "UTC\(local.tm_gmtoff < 0 ? "-" : "+")\(padded(minutes / 60)):\(padded(minutes % 60))"
        }
        return "\(padded(Int(local.tm_year) + 1900, width: 4))-\(padded(local.tm_mon + 1))-\(padded(local.tm_mday)) "
            + "\(padded(local.tm_hour)):\(padded(local.tm_min)) \(zone)"
    }

    private static func padded(_ value: some BinaryInteger, width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
