import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest
import QRDecoding

extension ProspectsService {
    /// Scans one live-camera frame, already claimed in `uploads`: decoded as an upload is, loaded only when
    /// `isNew` says one of its codes' texts has just come into view, then filed as an upload is; a frame with no
    /// code or no new one is removed.
    public func scanFrame(
        _ claim: FileClaim, uploads: UploadFolder, context: CollectionContext, isNew: ([String]) -> Bool
    ) throws -> CameraFrame {
        let outcome = FileProcessor().process(path: claim.claimedPath, followSymlinks: false)
        let texts = outcome.codes.map(\.symbol.text)
        guard !texts.isEmpty else {
            uploads.discard(claim)
            return .noCode
        }
        guard isNew(texts) else {
            uploads.discard(claim)
            return .seen
        }
        let loader = Loader(store: try store(create: true), batchSize: 1, context: context)
        var results: [FileResult] = []
        try loader.add(outcome) { results.append($0) }
        try loader.flush { results.append($0) }
        guard let result = results.first else { return .noCode }
        let filedAt = try? uploads.file(claim, result: result)
        if let filedAt { nameArchivedPicture(result, filedAt: filedAt) }
        return .scanned(result, filedAt: filedAt)
    }
}
