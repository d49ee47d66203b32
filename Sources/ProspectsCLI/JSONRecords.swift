import Foundation
import Glibc
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import ProspectsService
import QRDecoding

/// The JSON Lines records every command writes, so one shape means one thing everywhere.
enum JSONRecords {
    static func error(_ error: ScanError) -> JSONLine {
        var json = JSONLine()
        json.add("kind", error.kind)
        json.add("message", HumanText.problem(error))
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

    /// A file's problem in the CLI's words: the error's message, and for a picture over the pixel limit the option
    /// and value that read it. The message names no option: `serve`, whose uploads have the default limit and no
    /// option to change it, shows the message alone.
    static func problem(_ error: ScanError) -> String {
        guard let needed = error.pixelLimitNeeded else { return error.message }
        return "\(error.message); --pixel-limit \(needed) reads it"
    }

    /// Warns on stderr of each thing `file` was read in spite of: `x.jpg: warning: the JPEG file ends without…`.
    static func warn(_ warnings: [ScanWarning], file: String, _ console: Console) {
        for warning in warnings { console.warn("\(SafeText.escaped(file)): warning: \(warning.message)") }
    }
}

extension HumanText {
    /// `2026-11-30 11:05 CET`: see `LocalTime`.
    static func date(_ date: Date) -> String {
        LocalTime.text(date)
    }
}
