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
        var claims: [FileClaim] = []
        var names: [String: String] = [:]
        var report: [UploadOutcome] = []
        for file in files {
            do throws(SystemCallError) {
                let claim = try folder.admit(file.path, clientName: file.clientName)
                claims.append(claim)
                names[claim.claimedPath] = file.clientName
            } catch {
                report.append(
                    UploadOutcome(
                        fileName: file.clientName, lines: [.init(kind: .rejected, text: "not kept: \(error)")]))
            }
        }
        guard !claims.isEmpty else { return report }
        let filed = try ingestAndFile(claims, into: folder, context: context)
        return report + outcomes(of: filed, names: names, folder: folder)
    }

    /// Each filed upload's outcome in the CLI's words, under the name the browser gave it (`names`, by claimed path).
    func outcomes(of filedUploads: [FiledUpload], names: [String: String], folder: UploadFolder) -> [UploadOutcome] {
        var report: [UploadOutcome] = []
        for filed in filedUploads {
            let name = names[filed.claim.claimedPath] ?? filed.claim.name
            var outcome: UploadOutcome
            switch filed.ingested {
            case .committed(let result):
                outcome = UploadOutcome(fileName: name, result: result)
            case .notAPicture(let kind):
                outcome = UploadOutcome(
                    fileName: name, lines: [.init(kind: .rejected, text: "rejected: \(kind), not a picture")])
            case .missing(let error):
                outcome = UploadOutcome(
                    fileName: name, lines: [.init(kind: .rejected, text: "rejected: \(error.message)")])
            }
            if let error = filed.notFiled {
                outcome.lines.append(.init(kind: .rejected, text: "kept in \(folder.incoming): \(error)"))
            }
            report.append(outcome)
        }
        return report
    }
}
