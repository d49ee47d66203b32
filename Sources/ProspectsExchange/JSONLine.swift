import Foundation
import ProspectsCore

/// One JSON object written as one line (JSON Lines), with keys in the order they were added.
///
/// Hand-written rather than `JSONEncoder` so that keys come out in a meaningful order and every character that
/// could act on a terminal (controls, bidi overrides, invisible format characters) is escaped as `\uXXXX`.
public struct JSONLine: Sendable {
    private var text = "{"
    private var empty = true

    public init() {}

    public mutating func add(_ key: String, _ value: String?) {
        guard let value else { return addRaw(key, "null") }
        addRaw(key, JSONLine.quote(value))
    }

    public mutating func add(_ key: String, _ value: Int) { addRaw(key, String(value)) }
    public mutating func add(_ key: String, _ value: Int64) { addRaw(key, String(value)) }
    public mutating func add(_ key: String, _ value: Double) { addRaw(key, String(value)) }
    public mutating func add(_ key: String, _ value: Bool) { addRaw(key, value ? "true" : "false") }
    public mutating func add(_ key: String, _ value: Date?) { add(key, value.map(ISO8601.string)) }
    public mutating func add(_ key: String, object: JSONLine) { addRaw(key, object.rendered) }
    public mutating func add(_ key: String, array: [JSONLine]) {
        addRaw(key, "[" + array.map(\.rendered).joined(separator: ",") + "]")
    }
    public mutating func add(_ key: String, rawArray: [String]) {
        addRaw(key, "[" + rawArray.joined(separator: ",") + "]")
    }

    public mutating func addRaw(_ key: String, _ json: String) {
        if !empty { text += "," }
        empty = false
        text += JSONLine.quote(key) + ":" + json
    }

    public var rendered: String { text + "}" }

    /// `string` as a JSON string literal, with controls and terminal-unsafe scalars (see `SafeText`) as `\uXXXX`.
    public static func quote(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case " "..."~": out.unicodeScalars.append(scalar)  // printable ASCII, the common case: no lookups
            default:
                if SafeJSON.mustEscape(scalar) {
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

enum SafeJSON {
    static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || SafeText.isUnsafe(scalar)
    }
}

/// ISO 8601 timestamps with milliseconds, in UTC, as every `createdAt`-style field is written (`Timestamp` reads
/// them back).
public enum ISO8601 {
    public static func string(_ date: Date) -> String {
        // The formatter truncates to milliseconds, and a stored 16.744 s reads back as 16.74399…: half a millisecond
        // more makes it round, so export → import gives back the very millisecond the store holds.
        date.addingTimeInterval(0.000_5).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
