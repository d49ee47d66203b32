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
        var byPath: [String: FileClaim] = [:]
        for claim in claims { byPath[claim.claimedPath] = claim }
        var filed = 0
        let ingester = try ingester(workers: 1, options: .init(), stopOnInterrupt: false)
        _ = try ingester.ingest(claims.map(\.claimedPath)) { event in
            switch event {
            case .file(let result):
                guard let claim = byPath[result.file.path] else { return }
                if (try? uploads.file(claim, result: result)) != nil { filed += 1 }
            case .skipped(let path, let kind):
                guard let claim = byPath[path] else { return }
                if (try? uploads.reject(claim, error: .unsupportedImage(kind: kind))) != nil { filed += 1 }
            case .missing, .noImages, .planned, .decoded:
                break
            }
        }
        return filed
    }
}
