import Foundation
import ProspectsCore
import ProspectsExchange

/// The `x.png.reason.json` written beside a quarantined file: why it was refused, readable by a person.
///
/// It carries the error's kind and message (which quote no more of a payload than needed), the time, and the
/// file's identity: its SHA-256 when it could be read, its inode, and the token of the claim it was written for.
/// A claim keeps its token when another watcher takes it up, so a restarted watcher recognises a reason file
/// written for this very claim just before a kill; a file moved back into the inbox by hand keeps its inode but
/// is claimed under a new token, and gets a reason file of its own.
public struct QuarantineReason: Sendable, Hashable {
    public var file: String
    public var error: ScanError
    public var time: Date
    public var contentHash: String?
    public var inode: UInt64
    /// The claim's token (`ClaimDirectory.token(of:)`).
    public var claim: String

    public init(file: String, error: ScanError, time: Date, contentHash: String?, inode: UInt64, claim: String) {
        self.file = file
        self.error = error
        self.time = time
        self.contentHash = contentHash
        self.inode = inode
        self.claim = claim
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
        json.add("claim", claim)
        return json.rendered + "\n"
    }

    /// True when `bytes` are a reason file written for the same claim of the same file as this one. A reason file
    /// of an earlier version (no claim token) never is: at worst a second reason file is written, never a wrong pair.
    func isSameClaim(as bytes: [UInt8]) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let number = object["inode"] as? NSNumber, let claim = object["claim"] as? String
        else { return false }
        return UInt64(bitPattern: number.int64Value) == inode && claim == self.claim
    }
}
