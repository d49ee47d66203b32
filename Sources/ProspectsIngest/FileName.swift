/// A file name as the kernel gives it, in bytes: a String when they are UTF-8, else only something to show.
///
/// Swift strings repair bad UTF-8, so a Latin-1 name (`caf\xE9.png`) decoded as UTF-8 names another file: looking
/// it up fails with ENOENT and the file would be skipped in silence. Callers report such names instead.
enum FileName: Sendable, Hashable {
    case valid(String)
    /// Not UTF-8: the name with U+FFFD for each bad sequence, for messages only.
    case undecodable(shown: String)

    init(_ bytes: some Collection<UInt8>) {
        if let name = String(validating: bytes, as: UTF8.self) {
            self = .valid(name)
        } else {
            self = .undecodable(shown: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Why a file under such a name is left where it is.
    static let undecodableReason = "the file name is not valid UTF-8, so it cannot be opened; rename the file"
}
