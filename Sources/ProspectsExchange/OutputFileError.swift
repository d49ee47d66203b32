/// Why an output file (`OutputFile`) could not be written, with the sentence that names the file and the reason.
public enum OutputFileError: Error, Sendable, Hashable {
    /// The file could not be made, or the name is something it must not replace (a folder, a database).
    case cannotCreate(String)
    /// Bytes could not be written to it, or synced.
    case cannotWrite(String)

    /// A sentence a person understands: the file, then what went wrong.
    public var message: String {
        switch self {
        case .cannotCreate(let message), .cannotWrite(let message): message
        }
    }
}
