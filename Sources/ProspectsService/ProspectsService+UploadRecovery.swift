import ProspectStore
import ProspectsCore
import ProspectsIngest

extension ProspectsService {
    /// Files what a server killed mid-request left in the uploads' `.incoming/` folder (`UploadFolder.leftovers`):
    /// each through the ingest path of an upload, into the archive or, with its reason (a file cut short is
    /// unreadable), into the quarantine. Returns how many were filed; one that cannot be moved stays for the next
    /// start. Run before serving: a file being received then would look left over.
    public func recoverUploads(_ uploads: UploadFolder) throws -> Int {
        let claims = try uploads.leftovers()
        guard !claims.isEmpty else { return 0 }
        return try ingestAndFile(claims, into: uploads, context: CollectionContext()).filter(\.isFiled).count
    }
}
