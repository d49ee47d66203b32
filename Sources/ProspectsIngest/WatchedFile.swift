/// One file's end in `watch`: its committed result, and where the file went.
public struct WatchedFile: Sendable {
    /// What loading did; `result.file.path` is the path the file was dropped at.
    public var result: FileResult
    /// The name the file had in the inbox.
    public var name: String
    /// Where the file is now: in the archive, or in the quarantine beside its reason file.
    public var destination: String

    public init(result: FileResult, name: String, destination: String) {
        self.result = result
        self.name = name
        self.destination = destination
    }

    public var outcome: FileResult.Outcome { result.outcome }
}
