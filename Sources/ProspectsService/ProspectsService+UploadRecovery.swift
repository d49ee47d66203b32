import ProspectStore
import ProspectsCore
import ProspectsIngest

extension ProspectsService {
    /// Files what a server killed mid-request left in the uploads' `.incoming/` folder (`UploadFolder.leftovers`):
    /// each through the ingest path of an upload, into the archive or, with its reason (a file cut short is
    /// unreadable), into the quarantine. Returns how many were filed; one that cannot be moved stays for the next
    /// start. Run before serving: a file being received then would look left over.
    /// An upload given a receipt (its request's `upload-XXXXXX.RECEIPT~NAME` files) gets its receipt written, in
    /// the `recovered` state, so that the phone can learn what was kept.
    public func recoverUploads(_ uploads: UploadFolder) throws -> Int {
        let leftovers = try uploads.leftoversWithReceipts()
        guard !leftovers.isEmpty else { return 0 }
        let filed = try ingestAndFile(leftovers.map(\.claim), into: uploads, context: CollectionContext())
        var receipts: [String: String] = [:]
        for leftover in leftovers { receipts[leftover.claim.claimedPath] = leftover.receipt }
        var byReceipt: [String: [UploadOutcome]] = [:]
        for file in filed {
            guard let id = receipts[file.claim.claimedPath] else { continue }
            byReceipt[id, default: []] += outcomes(of: [file], names: [:], folder: uploads)
        }
        for (id, files) in byReceipt {
            try saveReceipt(UploadReceipt(id: id, state: .recovered, files: files), in: uploads)
        }
        return filed.filter(\.isFiled).count
    }
}
