import ProspectsCore
import ProspectsIngest

/// What an uploaded picture did, in the words the CLI uses: each code added, already in the list, or rejected
/// with its reason.
public struct UploadOutcome: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case added, duplicate, rejected
    }

    public struct Line: Sendable, Hashable, Codable {
        public var kind: Kind
        public var text: String

        public init(kind: Kind, text: String) {
            self.kind = kind
            self.text = text
        }
    }

    /// The name the browser gave the file.
    public var fileName: String
    public var lines: [Line]

    public init(fileName: String, lines: [Line]) {
        self.fileName = fileName
        self.lines = lines
    }

    /// The outcome of one committed file.
    public init(fileName: String, result: FileResult) {
        self.fileName = fileName
        if let error = result.file.fileError {
            lines = [Line(kind: .rejected, text: "rejected: \(error.message)")]
            return
        }
        let codes = result.file.codes
        lines = zip(codes, result.codes).enumerated().map { index, pair in
            let which = codes.count > 1 ? " (code \(index + 1) of \(codes.count))" : ""
            switch (pair.0.result, pair.1) {
            case (.success(let prospect), .inserted):
                return Line(kind: .added, text: "added\(which): \(prospect.name) <\(prospect.email)>")
            case (.success(let prospect), .duplicate):
                return Line(kind: .duplicate, text: "already in the list\(which): \(prospect.name) <\(prospect.email)>")
            case (_, .rejected(let error)), (.failure(let error), _):
                return Line(kind: .rejected, text: "rejected\(which): \(error.message)")
            }
        }
    }
}
