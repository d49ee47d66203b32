import Foundation
import ProspectsIngest

/// What one upload became, kept in the uploads folder under the id its form was given, so that a phone whose
/// answer never came (the server was killed, the network dropped) can ask afterwards what was kept, as which lead.
public struct UploadReceipt: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Hashable, Codable {
        /// Answered: each file's outcome as the answer gave it.
        case answered
        /// Cut short by a stopped server, and filed at its next start.
        case recovered
    }

    public var id: String
    public var state: State
    public var files: [UploadOutcome]

    public init(id: String, state: State, files: [UploadOutcome]) {
        self.id = id
        self.state = state
        self.files = files
    }
}

extension ProspectsService {
    /// Keeps `receipt` in `folder` (replacing one of the same id: a recovery adds to what the answer said).
    public func saveReceipt(_ receipt: UploadReceipt, in folder: UploadFolder) throws {
        var kept = receipt
        if let earlier = self.receipt(receipt.id, in: folder), earlier.state == .recovered,
            receipt.state == .recovered
        {
            kept.files = earlier.files + receipt.files
        }
        try folder.writeReceipt(receipt.id, Array(try JSONEncoder().encode(kept)))
    }

    /// Receipt `id` of `folder`, nil when none was kept (nothing of that upload arrived, or it is not an id).
    public func receipt(_ id: String, in folder: UploadFolder) -> UploadReceipt? {
        guard let bytes = folder.readReceipt(id) else { return nil }
        return try? JSONDecoder().decode(UploadReceipt.self, from: Data(bytes))
    }
}
