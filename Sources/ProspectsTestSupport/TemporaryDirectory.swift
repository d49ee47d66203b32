import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh private folder (mode 0700) for one test's files, removed on `cleanup()` or when released.
///
/// A class rather than a struct so that the folder's lifetime is the object's: `deinit` removes it.
public final class TemporaryDirectory: Sendable {
    /// The folder.
    public let url: URL

    /// The folder's path.
    public var path: String { url.path }

    /// Creates a folder named `<prefix>-XXXXXX` in the system's temporary folder. The C function is `mkdtemp`.
    public init(prefix: String = "prospects-test") throws {
        let base = NSTemporaryDirectory().isEmpty ? "/tmp" : NSTemporaryDirectory()
        var template = Array(((base as NSString).appendingPathComponent("\(prefix)-XXXXXX")).utf8CString)
        guard let created = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: base])
        }
        url = URL(fileURLWithPath: String(cString: created), isDirectory: true)
    }

    deinit {
        cleanup()
    }

    /// The path of `name` inside the folder (nothing is created).
    public func file(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `list.csv` with a header and `count` people (`Person 1,p1@example.com`…) and returns its path: a list
    /// long enough to interrupt, or to fill a disk.
    public func contactList(_ count: Int) throws -> String {
        let path = file("list.csv")
        let csv = "name,email\n" + (1...count).map { "Person \($0),p\($0)@example.com\n" }.joined()
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Removes the folder and everything in it now. Safe to call more than once.
    public func cleanup() {
        try? FileManager.default.removeItem(at: url)
    }
}
