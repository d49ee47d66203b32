import Foundation
import Glibc
import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import QRDecoding

/// The JSON Lines records every command writes, so one shape means one thing everywhere.
enum JSONRecords {
    static func error(_ error: ScanError) -> JSONLine {
        var json = JSONLine()
        json.add("kind", error.kind)
        json.add("message", error.message)
        return json
    }

    static func fileError(path: String, _ error: ScanError) -> JSONLine {
        var json = JSONLine()
        json.add("file", path)
        json.add("error", object: self.error(error))
        return json
    }

    static func prospect(_ prospect: Prospect) -> JSONLine {
        var json = JSONLine()
        json.add("name", prospect.name)
        json.add("email", prospect.email)
        if let phone = prospect.phone { json.add("phone", phone) }
        if let organization = prospect.organization { json.add("organization", organization) }
        return json
    }

    /// One code of a file: its text and either the prospect or why it is not one.
    static func code(_ code: CodeOutcome, file: String, status: FileResult.CodeStatus? = nil) -> JSONLine {
        var json = JSONLine()
        json.add("file", file)
        json.add("text", code.symbol.text)
        switch code.result {
        case .success(let prospect): json.add("prospect", object: self.prospect(prospect))
        case .failure(let error): json.add("error", object: self.error(error))
        }
        switch status {
        case .inserted(let id)?:
            json.add("stored", "inserted")
            json.add("id", id)
        case .duplicate(let id)?:
            json.add("stored", "duplicate")
            if let id { json.add("id", id) }
        case .rejected?, nil: break
        }
        json.add("encoding", code.symbol.encoding)
        json.add("quality", code.symbol.quality)
        json.add("pass", code.symbol.pass)
        json.add("corners", rawArray: code.symbol.corners.map { "[\($0.x),\($0.y)]" })
        return json
    }

    static func stored(_ stored: StoredProspect) -> JSONLine {
        ProspectExporter.jsonObject(stored)
    }
}

/// Text for people. Everything taken from input goes through `SafeText.escaped`.
enum HumanText {
    /// `1 file`, `2 files`: a count with its noun, singular for one.
    static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
    }

    /// ` (code 2 of 3)`: which code of a picture a line speaks of; nothing for a picture of one code.
    static func whichCode(_ index: Int, of count: Int) -> String {
        count > 1 ? " (code \(index + 1) of \(count))" : ""
    }

    static func prospect(_ prospect: Prospect) -> String {
        "\(SafeText.escaped(prospect.name)) <\(SafeText.escaped(prospect.email))>"
    }
}

extension HumanText {
    /// `2026-11-30 11:05 CET`: the local time (`TZ`), the way `remind --at` reads one, to the minute, which is
    /// enough for a person reading a list. (JSON keeps ISO 8601 in UTC.)
    static func date(_ date: Date) -> String {
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
