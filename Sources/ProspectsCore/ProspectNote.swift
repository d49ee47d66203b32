import Foundation

/// One note on a prospect: what was written, by whom, when. Notes are only ever appended.
public struct ProspectNote: Sendable, Hashable {
    public var writtenAt: Date
    /// Who wrote it: the collector for a card's own `NOTE`, else whoever added it.
    public var author: String
    public var text: String

    public init(writtenAt: Date, author: String, text: String) {
        self.writtenAt = writtenAt
        self.author = author
        self.text = text
    }
}
