/// The manual page `prospects(1)` in roff (`prospects help --man`), made from the very text `--help` and
/// `help <subcommand>` print, so that the two cannot say different things.
enum ManPage {
    static func render() -> String {
        var page = [
            ".TH PROSPECTS 1 \"\" \"prospects \(ProspectsCommand.version)\" \"User Commands\"",
            ".SH NAME",
            "prospects \\- " + escaped(ProspectsCommand.summary),
            ".SH SYNOPSIS",
            ".B prospects",
            ".I subcommand",
            "[options]",
            ".SH DESCRIPTION",
            escaped(ProspectsCommand.summary),
            ".PP",
            "The store: " + escaped(ProspectsCommand.store),
            ".SH OPTIONS",
        ]
        page += verbatim(ProspectsCommand.options)
        page.append(".SH COMMANDS")
        for command in ProspectsCommand.subcommands {
            page += [".SS " + escaped(command.name), escaped(command.abstract)]
            page += verbatim(command.help)
        }
        page.append(".SH EXIT STATUS")
        for status in ExitCode.allCases {
            page += [".TP", ".B \(status.rawValue)", escaped(status.summary)]
        }
        page += [
            ".SH ENVIRONMENT",
            ".TP",
            ".B PROSPECTS_STORE",
            "The store when no \\-\\-store is given: an SQLite file path or a postgres:// URL.",
            ".TP",
            ".B TZ",
            "The time zone dates are shown and read in.",
        ]
        return page.joined(separator: "\n")
    }

    /// Text shown as it is laid out, line for line (help sections are aligned in columns).
    private static func verbatim(_ text: String) -> [String] {
        [".PP", ".nf"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
            + [".fi"]
    }

    /// `text` as roff input: backslashes and hyphens escaped (a `-` in an option is a minus sign, which renders
    /// as one and can be searched for), characters past ASCII by code point, and a leading `.` or `'` made text.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where scalar.value > 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result.hasPrefix(".") || result.hasPrefix("'") ? "\\&" + result : result
    }
}
