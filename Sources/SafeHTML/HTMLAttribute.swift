/// One attribute of an element, its value escaped and double-quoted; URLs in `href`, `src`, `action` and the like
/// are checked by `SafeURL` first.
public struct HTMLAttribute: Sendable, Hashable {
    /// ` name="value"` (or ` name` for a boolean attribute), ready to follow the tag name.
    let markup: String

    /// `name="value"`. The name is code, never data: a plain name, not an event handler (`on…`), whose scripts
    /// the content security policy refuses anyway. A URL attribute's value goes through `SafeURL`.
    public static func attribute(_ name: String, _ value: String) -> HTMLAttribute {
        precondition(isPlainName(name), "\(name) is not a plain attribute name")
        let lowered = asciiLowercased(name)
        precondition(!lowered.hasPrefix("on"), "\(name): event handler attributes are refused")
        let safe = urlAttributes.contains(lowered) ? SafeURL(value).value : value
        return HTMLAttribute(markup: " " + lowered + "=\"" + HTMLEscaping.escape(safe) + "\"")
    }

    /// A boolean attribute (`required`, `checked`, `disabled`…), present or absent.
    public static func flag(_ name: String, _ isOn: Bool = true) -> HTMLAttribute {
        precondition(isPlainName(name), "\(name) is not a plain attribute name")
        let lowered = asciiLowercased(name)
        precondition(!lowered.hasPrefix("on"), "\(name): event handler attributes are refused")
        return HTMLAttribute(markup: isOn ? " " + lowered : "")
    }

    public static func `class`(_ value: String) -> HTMLAttribute { attribute("class", value) }
    public static func id(_ value: String) -> HTMLAttribute { attribute("id", value) }
    public static func name(_ value: String) -> HTMLAttribute { attribute("name", value) }
    public static func value(_ value: String) -> HTMLAttribute { attribute("value", value) }
    public static func type(_ value: String) -> HTMLAttribute { attribute("type", value) }
    public static func href(_ url: String) -> HTMLAttribute { attribute("href", url) }
    public static func src(_ url: String) -> HTMLAttribute { attribute("src", url) }
    public static func action(_ url: String) -> HTMLAttribute { attribute("action", url) }
    public static func method(_ value: String) -> HTMLAttribute { attribute("method", value) }
    public static func data(_ name: String, _ value: String) -> HTMLAttribute { attribute("data-" + name, value) }

    /// Attributes whose value the browser follows as a URL.
    static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "poster", "cite", "background", "longdesc", "manifest", "xlink:href",
        "ping",
    ]

    /// ASCII letters, digits, `-`, `_`, `:` and `.`, starting with a letter.
    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isASCIILetter(first) else { return false }
        return name.utf8.allSatisfy {
            isASCIILetter($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F || $0 == 0x3A || $0 == 0x2E
        }
    }

    /// A plain name with its ASCII capitals lowered; the name itself, without copying, when it has none (the
    /// usual case: names are written in the source). Plain names are ASCII, so this is `lowercased()` for them.
    static func asciiLowercased(_ name: String) -> String {
        guard name.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return name }
        return String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
    }
}
