import Foundation

/// One line of a prospect's scan history.
public struct ScanRecord: Sendable, Hashable {
    public var source: String
    public var seenAt: Date
    /// The event the card was collected at on this scan, when the collector said.
    public var event: String?
    /// Who collected the card on this scan.
    public var collectedBy: String?

    public init(source: String, seenAt: Date, event: String? = nil, collectedBy: String? = nil) {
        self.source = source
        self.seenAt = seenAt
        self.event = event
        self.collectedBy = collectedBy
    }
}
