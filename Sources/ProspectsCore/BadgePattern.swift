import Foundation

/// An event's rule for finding an attendee ID in a badge's code: a regular expression with exactly one named group
/// (`https://reg\.example/b/(?<id>[0-9]+)`), searched for in the code's text; the group's text is the ID.
public struct BadgePattern: Sendable, Hashable {
    public let pattern: String
    /// The one named group.
    public let group: String
    private let expression: RegularExpressionBox

    /// Compiles `pattern`; throws when it is no regular expression or has other than one named group.
    public init(_ pattern: String) throws(BadgePatternError) {
        let expression: NSRegularExpression
        do { expression = try NSRegularExpression(pattern: pattern) } catch {
            throw .notARegularExpression(pattern)
        }
        let names = Self.groupNames(in: pattern)
        guard names.count == 1, let name = names.first else { throw .needsOneNamedGroup(pattern, found: names.count) }
        self.pattern = pattern
        group = name
        self.expression = RegularExpressionBox(expression: expression)
    }

    /// The named group's text at the first match in `text`; nil when the pattern does not match or takes nothing.
    public func attendeeID(in text: String) -> String? {
        let range = NSRange(text.startIndex..., in: text)
        guard let match = expression.expression.firstMatch(in: text, range: range),
            let found = Range(match.range(withName: group), in: text), !found.isEmpty
        else { return nil }
        return String(text[found])
    }

    public static func == (left: Self, right: Self) -> Bool { left.pattern == right.pattern }
    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    /// The names of `(?<name>…)` groups, escaped parentheses and character classes skipped.
    private static func groupNames(in pattern: String) -> [String] {
        var names: [String] = []
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        var inClass = false
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\" {
                index += 2
                continue
            }
            if inClass {
                if scalar == "]" { inClass = false }
            } else if scalar == "[" {
                inClass = true
            } else if scalar == "(", index + 2 < scalars.count, scalars[index + 1] == "?", scalars[index + 2] == "<",
                index + 3 < scalars.count, scalars[index + 3] != "=", scalars[index + 3] != "!"
            {
                var name = ""
                var end = index + 3
                while end < scalars.count, scalars[end] != ">" {
                    name.unicodeScalars.append(scalars[end])
                    end += 1
                }
                names.append(name)
                index = end
            }
            index += 1
        }
        return names
    }
}

/// `NSRegularExpression` is immutable and thread-safe, but not marked `Sendable` on Linux.
private final class RegularExpressionBox: @unchecked Sendable {
    let expression: NSRegularExpression

    init(expression: NSRegularExpression) {
        self.expression = expression
    }
}

/// Why a badge pattern was refused.
public enum BadgePatternError: Error, Sendable, Hashable {
    case notARegularExpression(String)
    case needsOneNamedGroup(String, found: Int)

    public var message: String {
        switch self {
        case .notARegularExpression(let pattern): "the badge pattern \(pattern) is no regular expression"
        case .needsOneNamedGroup(let pattern, let found):
            "the badge pattern \(pattern) needs exactly one named group, (?<id>…), that takes the attendee ID; "
                + "it has \(found)"
        }
    }
}
