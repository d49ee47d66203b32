/// A name in its parts, as vCard's `N` property gives them (`Appleseed;Johnny;Q.;Dr.;Jr.`) and MECARD's `N`
/// (`Last,First`). The display name stays `Prospect.name`; these parts are kept beside it, as the card wrote them.
public struct NameParts: Sendable, Hashable, Codable {
    public var family: String
    public var given: String
    /// Middle names.
    public var additional: String
    /// Honorific prefixes (`Dr.`).
    public var prefix: String
    /// Honorific suffixes (`Jr.`).
    public var suffix: String

    public init(
        family: String = "", given: String = "", additional: String = "", prefix: String = "", suffix: String = ""
    ) {
        self.family = family
        self.given = given
        self.additional = additional
        self.prefix = prefix
        self.suffix = suffix
    }

    /// The parts in vCard's order: family, given, additional, prefix, suffix.
    public var components: [String] { [family, given, additional, prefix, suffix] }

    /// The parts from vCard's order; missing ones are empty, extra ones ignored.
    public init(components: [String]) {
        func part(_ index: Int) -> String { index < components.count ? components[index] : "" }
        self.init(family: part(0), given: part(1), additional: part(2), prefix: part(3), suffix: part(4))
    }

    /// True when every part is empty.
    public var isEmpty: Bool { components.allSatisfy(\.isEmpty) }
}
