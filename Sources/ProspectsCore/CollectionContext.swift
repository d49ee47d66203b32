/// Where and by whom the cards of one run were collected (`--event`, `--by`): given to every sighting it records,
/// so that each scan keeps its own.
public struct CollectionContext: Sendable, Hashable {
    /// The event (a trade fair), when the collector said.
    public var event: String?
    /// The person or device that collected the cards; the author of a card's own note.
    public var collectedBy: String?

    public init(event: String? = nil, collectedBy: String? = nil) {
        self.event = event
        self.collectedBy = collectedBy
    }
}
