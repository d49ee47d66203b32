import Foundation

/// CodeScanner's `oncePerCode` for a live camera: a code counts when it comes into view, and not again while it
/// stays there. A code is forgotten only when frames have gone on without it for `forgetAfter`: a frame that misses it
/// (motion blur, a hand in the way) does not make it count twice, nor do frames that show it but come slowly.
public struct CodeRepeatFilter: Sendable, Hashable {
    public var forgetAfter: TimeInterval
    /// Each code's text and the time a frame last showed it.
    private var lastSeen: [String: Date] = [:]

    public init(forgetAfter: TimeInterval = 3) {
        self.forgetAfter = forgetAfter
    }

    /// Notes the codes one frame shows at `time`; returns those that are new: not remembered, because no frame showed
    /// them or a frame without them came `forgetAfter` after the last that did.
    public mutating func newCodes(_ texts: [String], at time: Date) -> [String] {
        lastSeen = lastSeen.filter { texts.contains($0.key) || time.timeIntervalSince($0.value) < forgetAfter }
        let new = texts.filter { lastSeen[$0] == nil }
        for text in texts { lastSeen[text] = time }
        return new
    }
}
