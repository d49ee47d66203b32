import Foundation
import ProspectsCore
import ProspectsExchange

/// The `x.png.reason.json` written beside a quarantined file: why it was refused, readable by a person.
///
/// It carries the error's kind and message (which quote no more of a payload than needed), the time, and the
/// file's identity: its SHA-256 when it could be read, and its inode, which stays the same across renames and
/// lets a restarted watcher recognise a reason file it wrote just before being killed.
public struct QuarantineReason: Sendable, Hashable {
    public var file: String
    public var error: ScanError
    public var time: Date
    public var contentHash: String?
    public var inode: UInt64

    public init(file: String, error: ScanError, time: Date, contentHash: String?, inode: UInt64) {
        self.file = file
        self.error = error
        self.time = time
        self.contentHash = contentHash
        self.inode = inode
    }

    /// The suffix a reason file adds to the quarantined file's name.
    public static let suffix = ".reason.json"

    /// One JSON object and a newline.
    public var rendered: String {
        var json = JSONLine()
        json.add("file", file)
        json.add("kind", error.kind)
        json.add("message", error.message)
        json.add("time", time)
        if let contentHash { json.add("sha256", contentHash) }
        json.add("inode", Int64(bitPattern: inode))
        return json.rendered + "\n"
    }

    /// The inode a reason file names, if `bytes` are a reason file.
    static func inode(in bytes: [UInt8]) -> UInt64? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let number = object["inode"] as? NSNumber
        else { return nil }
        return UInt64(bitPattern: number.int64Value)
    }
}
