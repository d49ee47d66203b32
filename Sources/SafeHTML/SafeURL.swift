/// A URL fit for a link or a source: relative, or with a scheme from an allow list (http, https, mailto, tel).
/// Any other scheme (`javascript:`, `data:`, `vbscript:`…) is neutralised into `about:invalid#refused`, which
/// does nothing when followed.
public struct SafeURL: Sendable, Hashable {
    /// The URL as given when it is safe, else the neutral replacement.
    public let value: String
    /// False when the URL was replaced.
    public let isAllowed: Bool

    public static let allowedSchemes: Set<String> = ["http", "https", "mailto", "tel"]
    public static let neutralised = "about:invalid#refused"

    public init(_ url: String) {
        isAllowed = Self.scheme(of: url).map { Self.allowedSchemes.contains($0) } ?? true
        value = isAllowed ? url : Self.neutralised
    }

    /// The scheme as a browser reads it, lowercased, or nil for a relative URL. Browsers drop leading spaces and
    /// control characters and ignore tabs and line breaks anywhere, so `" java\tscript:"` is `javascript`.
    static func scheme(of url: String) -> String? {
        var scheme = ""
        for scalar in url.unicodeScalars {
            if scalar.value <= 0x20 { continue }
            if scalar == ":" { return scheme.lowercased() }
            if scalar == "/" || scalar == "?" || scalar == "#" { return nil }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }
}
