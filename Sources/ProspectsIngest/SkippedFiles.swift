import ProspectsCore

/// The files a folder walk passed over because they are no pictures, told in one sentence at the end of a run: the
/// count, the first few by name and what each is, then how many more.
public struct SkippedFiles: Sendable {
    /// How many are named before "and N more".
    public static let namedLimit = 5

    public private(set) var count = 0
    private var named: [(path: String, kind: String)] = []

    public init() {}

    public mutating func add(path: String, kind: String) {
        count += 1
        if named.count < Self.namedLimit { named.append((path, kind)) }
    }

    /// "skipped 2 files that are not pictures: notes.txt (a text file), scan.pdf (a PDF document)"; nil when none
    /// was skipped. Paths are escaped for a terminal.
    public var summary: String? {
        guard count > 0 else { return nil }
        let files = count == 1 ? "1 file that is not a picture" : "\(count) files that are not pictures"
        var line = "skipped \(files): "
        line += named.map { "\(SafeText.escaped($0.path)) (\($0.kind))" }.joined(separator: ", ")
        if count > named.count { line += ", and \(count - named.count) more" }
        return line
    }
}
