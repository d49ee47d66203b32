import Foundation
import SystemCalls

/// Rendered list pages, kept while the store's generation stays the same, so that a page many people look at is
/// read from the store once per change rather than once per request (its three counts and its sort each read every
/// row). A page is stored cut where the session's form token goes, and served with the requester's token put back.
/// Bounded by bytes; a new generation empties it.
final class PageCache: Sendable {
    /// What a cached page depends on besides the store: the list's state, and who looks (the header names the
    /// account, and admins see more).
    struct Key: Hashable, Sendable {
        var state: ListState
        var account: String?
        var isAdmin: Bool
    }

    /// A page's bytes, cut at every place its form token goes.
    struct Page: Sendable {
        let pieces: [[UInt8]]
        let byteCount: Int

        /// Cuts `markup` at each `placeholder`.
        init(markup: String, placeholder: String) {
            var pieces: [[UInt8]] = []
            var rest = Substring(markup)
            while let range = rest.range(of: placeholder) {
                pieces.append(Array(rest[..<range.lowerBound].utf8))
                rest = rest[range.upperBound...]
            }
            pieces.append(Array(rest.utf8))
            self.pieces = pieces
            byteCount = pieces.reduce(0) { $0 + $1.count }
        }

        /// The page with `token` where the placeholder was.
        func bytes(token: String) -> [UInt8] {
            let token = Array(token.utf8)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(byteCount + token.count * (pieces.count - 1))
            for (index, piece) in pieces.enumerated() {
                if index > 0 { bytes.append(contentsOf: token) }
                bytes.append(contentsOf: piece)
            }
            return bytes
        }
    }

    private struct State: ~Copyable {
        var generation: Int64?
        var pages: [Key: Page] = [:]
        /// Keys in the order they were stored, the first to be dropped when the bytes exceed the capacity.
        var order: [Key] = []
        var byteCount = 0
    }

    private let state = Locked(State())
    /// The most bytes of pages kept.
    let capacity: Int
    /// Stands in for the form token in a cached page: random per process, so no lead's text can contain it by
    /// design, and as long as a real token so that the cut page is the size it is served at.
    let placeholder = SessionStore.randomToken()

    init(capacity: Int = 16 << 20) {
        self.capacity = capacity
    }

    /// The page stored for `key` at `generation`, if any.
    func page(_ key: Key, generation: Int64) -> Page? {
        state.withLock { state in state.generation == generation ? state.pages[key] : nil }
    }

    /// Keeps `page` for `key` at `generation`: the page must have been read from the store after `generation` was,
    /// so that it is at least as new. A newer generation drops every page of the older one.
    func store(_ page: Page, for key: Key, generation: Int64) {
        guard page.byteCount <= capacity / 4 else { return }
        state.withLock { state in
            if state.generation != generation {
                // A page rendered under an older generation than the one seen since is not kept.
                if let current = state.generation, current > generation { return }
                state = State(generation: generation)
            }
            if let old = state.pages.updateValue(page, forKey: key) {
                state.byteCount -= old.byteCount
            } else {
                state.order.append(key)
            }
            state.byteCount += page.byteCount
            while state.byteCount > capacity, !state.order.isEmpty {
                let dropped = state.order.removeFirst()
                if let old = state.pages.removeValue(forKey: dropped) { state.byteCount -= old.byteCount }
            }
        }
    }
}
