import ProspectsCore
import ProspectsIngest
import SystemCalls

/// A picture a front-end received: where it was streamed to, and the name its sender gave it.
public struct PictureUpload: Sendable, Hashable {
    public var path: String
    public var clientName: String

    public init(path: String, clientName: String) {
        self.path = path
        self.clientName = clientName
    }
}

extension ProspectsService {
    /// Takes each picture into `folder` (out of the front-end's hands), through the ingest path the CLI uses, then
    /// into the folder's archive or quarantine with its reason; returns each file's outcome in the CLI's words. A
    /// file whose ingest did not finish stays in the folder's `.incoming/`, never deleted.
    public func upload(_ files: [PictureUpload], into folder: UploadFolder, context: CollectionContext) throws
        -> [UploadOutcome]
    {
        var claims: [String: FileClaim] = [:]
        var names: [String: String] = [:]
        var paths: [String] = []
        var report: [UploadOutcome] = []
        for file in files {
            do throws(SystemCallError) {
                let claim = try folder.admit(file.path, clientName: file.clientName)
                paths.append(claim.claimedPath)
                claims[claim.claimedPath] = claim
                names[claim.claimedPath] = file.clientName
            } catch {
                report.append(
                    UploadOutcome(
                        fileName: file.clientName, lines: [.init(kind: .rejected, text: "not kept: \(error)")]))
            }
        }
        guard !paths.isEmpty else { return report }
        /// Files `claim` away, saying on `outcome` when it could not be moved.
        func filed(_ outcome: UploadOutcome, _ move: (FileClaim) throws(SystemCallError) -> String, _ path: String)
            -> UploadOutcome
        {
            var outcome = outcome
            guard let claim = claims[path] else { return outcome }
            do throws(SystemCallError) {
                _ = try move(claim)
            } catch {
                outcome.lines.append(.init(kind: .rejected, text: "kept in \(folder.incoming): \(error)"))
            }
            return outcome
        }
        let ingester = try ingester(workers: 1, options: .init(), stopOnInterrupt: false, context: context)
        _ = try ingester.ingest(paths) { event in
            switch event {
            case .file(let result):
                let path = result.file.path
                report.append(
                    filed(
                        UploadOutcome(fileName: names[path] ?? path, result: result),
                        { claim throws(SystemCallError) in try folder.file(claim, result: result) }, path))
            case .missing(let path, let error):
                report.append(
                    UploadOutcome(
                        fileName: names[path] ?? path,
                        lines: [.init(kind: .rejected, text: "rejected: \(error.message)")]))
            case .skipped(let path, let kind):
                report.append(
                    filed(
                        UploadOutcome(
                            fileName: names[path] ?? path,
                            lines: [.init(kind: .rejected, text: "rejected: \(kind), not a picture")]),
                        { claim throws(SystemCallError) in
                            try folder.reject(claim, error: .unsupportedImage(kind: kind))
                        },
                        path))
            case .noImages, .planned, .decoded:
                break
            }
        }
        return report
    }
}
