/// A prospect together with the format of the code it came from, for reporting and statistics.
public struct ParsedPayload: Sendable, Hashable, Codable {
    /// The contact, validated and normalised.
    public var prospect: Prospect
    /// Which kind of code carried it.
    public var format: PayloadFormat

    public init(prospect: Prospect, format: PayloadFormat) {
        self.prospect = prospect
        self.format = format
    }
}
