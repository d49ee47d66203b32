import Foundation
import ProspectStore
import ProspectsCore

/// A scan a phone made and kept until the server answered it: what the booth app queues while offline and sends in
/// a batch. `id` is the phone's own UUID for the scan, so that sending it again after a lost answer changes nothing.
public struct QueuedScan: Sendable, Hashable {
    public var id: String
    /// The code's text, as the phone's decoder read it; the server's parser decides what it is.
    public var payload: String
    public var scannedAt: Date
    public var rating: ProspectRating?
    public var tags: [String]
    public var note: String?
    public var event: String?
    public var collectedBy: String?

    public init(
        id: String, payload: String, scannedAt: Date, rating: ProspectRating? = nil, tags: [String] = [],
        note: String? = nil, event: String? = nil, collectedBy: String? = nil
    ) {
        self.id = id
        self.payload = payload
        self.scannedAt = scannedAt
        self.rating = rating
        self.tags = tags
        self.note = note
        self.event = event
        self.collectedBy = collectedBy
    }

    /// The scan history's name for it until its frame is filed: `phone scan <uuid>`.
    public var source: String { "phone scan " + id.lowercased() }

    /// What the server did with one queued scan.
    public enum Answer: Sendable, Hashable {
        /// Stored now: the lead's id, and whether this scan made it (false: a scan of a lead already known).
        case stored(id: Int64, new: Bool)
        /// Stored by an earlier sending of the same scan: nothing changed. The lead's id while it is still there.
        case alreadyStored(id: Int64?)
        /// The payload is no contact the parser accepts, or a field is unusable: nothing stored, and the reason.
        case rejected(ScanError)
        /// The scan's id is no UUID: it cannot be applied exactly once, so it is not applied.
        case badID
    }

    /// The ledger key that marks this scan as applied: the ledger keeps files by content, scans by their id.
    var ledgerKey: String { "scan:" + id.lowercased() }
}
