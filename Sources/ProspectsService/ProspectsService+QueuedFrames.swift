import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest

extension ProspectsService {
    /// Files the camera frame a phone read a queued scan from, once the scan's answer is known, as uploads are filed:
    /// a stored scan's frame goes to the archive and its scan history names it there; a rejected scan's frame goes to
    /// the quarantine with the parser's reason; a scan sent again keeps the frame filed the first time, and this
    /// copy is removed. Returns where the frame went, nil when it was removed or could not be moved.
    @discardableResult
    public func fileQueuedFrame(
        _ claim: FileClaim, of scan: QueuedScan, answer: QueuedScan.Answer, uploads: UploadFolder
    ) -> String? {
        switch answer {
        case .stored(let id, _):
            guard let filedAt = try? uploads.archive(claim) else { return nil }
            try? store().renameSource(scan.source, to: filedAt, prospects: [id])
            return filedAt
        case .rejected(let error):
            return try? uploads.reject(claim, error: error)
        case .alreadyStored, .badID:
            uploads.discard(claim)
            return nil
        }
    }
}
