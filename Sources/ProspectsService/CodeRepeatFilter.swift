import Foundation

/// CodeScanner's `oncePerCode` for a live camera: a code counts when it comes into view, and not again while it
/// stays there. A code is forgotten once no frame has shown it for `forgetAfter`, so a frame that misses it
/// (motion blur, a hand in the way) does not make it count twice.
public struct CodeRepeatFilter: Sendable, Hashable {
    public var forgetAfter: TimeInterval
    /// Each code's text and the time a frame last showed it.
    private var lastSeen: [String: Date] = [:]

    public init(forgetAfter: TimeInterval = 3) {
        self.forgetAfter = forgetAfter
    }

    /// Notes the codes one frame shows at `time`; returns those that are new (not shown within `forgetAfter`).
    public mutating func newCodes(_ texts: [String], at time: Date) -> [String] {
        lastSeen = lastSeen.filter { time.timeIntervalSince($0.value) < forgetAfter }
        let new = texts.filter { lastSeen[$0] == nil }
        for text in texts { lastSeen[text] = time }
        return new
    }
}
