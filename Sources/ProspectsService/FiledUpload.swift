import ProspectStore
import ProspectsCore
import ProspectsIngest
import SystemCalls

/// What became of one claimed upload: what ingest made of it, and whether it then left `.incoming/` for the
/// uploads' archive or quarantine.
struct FiledUpload {
    /// What ingest made of the file.
    enum Ingested {
        /// Decoded and committed: its codes' outcomes.
        case committed(FileResult)
        /// Refused before decoding: no picture (`kind` names what it is).
        case notAPicture(kind: String)
        /// Gone or unreadable before ingest could open it; nothing to file.
        case missing(ScanError)
    }

    var claim: FileClaim
    var ingested: Ingested
    /// Why the file could not be moved out of `.incoming/` (it stays there for the next start); nil once filed.
    var notFiled: SystemCallError?

    /// Whether the file is now in the archive or the quarantine.
    var isFiled: Bool {
        if case .missing = ingested { return false }
        return notFiled == nil
    }
}

extension ProspectsService {
    /// Ingests `claims` (files in `folder`'s `.incoming/`) through the CLI's ingest path, then files each into the
    /// archive, or into the quarantine with its reason; one result per claim ingest reported, in its order.
    func ingestAndFile(_ claims: [FileClaim], into folder: UploadFolder, context: CollectionContext) throws
        -> [FiledUpload]
    {
        var byPath: [String: FileClaim] = [:]
        for claim in claims { byPath[claim.claimedPath] = claim }
        var results: [FiledUpload] = []
        /// `claim` with what ingest made of it, after `move` filed it (or said why it could not).
        func record(_ claim: FileClaim, _ ingested: FiledUpload.Ingested, _ move: () throws(SystemCallError) -> Void) {
            var notFiled: SystemCallError?
            do throws(SystemCallError) { try move() } catch { notFiled = error }
            results.append(FiledUpload(claim: claim, ingested: ingested, notFiled: notFiled))
        }
        let ingester = try ingester(workers: 1, options: .init(), stopOnInterrupt: false, context: context)
        _ = try ingester.ingest(claims.map(\.claimedPath)) { event in
            switch event {
            case .file(let result):
                guard let claim = byPath[result.file.path] else { return }
                record(claim, .committed(result)) { () throws(SystemCallError) in
                    let filedAt = try folder.file(claim, result: result)
                    nameArchivedPicture(result, filedAt: filedAt)
                }
            case .skipped(let path, let kind):
                guard let claim = byPath[path] else { return }
                record(claim, .notAPicture(kind: kind)) { () throws(SystemCallError) in
                    _ = try folder.reject(claim, error: .unsupportedImage(kind: kind))
                }
            case .missing(let path, let error):
                guard let claim = byPath[path] else { return }
                results.append(FiledUpload(claim: claim, ingested: .missing(error), notFiled: nil))
            case .noImages, .planned, .decoded:
                break
            }
        }
        return results
    }

    /// Makes the scan history of `result`'s prospects name the picture where it was filed (`archive/…`) rather than
    /// the `.incoming/` path it was read at, which no longer exists. Best effort: the picture is kept either way, and
    /// a store that fails here leaves the old name.
    func nameArchivedPicture(_ result: FileResult, filedAt: String) {
        let ids = result.codes.compactMap(\.id)
        guard result.outcome != .rejected, !ids.isEmpty else { return }
        try? store().renameSource(result.file.path, to: filedAt, prospects: ids)
    }
}
