import Foundation

/// How many sign-in attempts may fail before more are refused for a while: counted per account name and per client
/// address, each over a sliding window, so that neither guessing one account's password from many addresses nor
/// many accounts' passwords from one address goes fast. Pure: the time is a value the caller passes.
struct SignInLimiter: Sendable {
    /// Failures allowed per key within `window`; the next attempt is refused until the oldest leaves the window.
    var maximumFailures = 5
    var window: TimeInterval = 15 * 60
    /// Keys remembered at most (the ones whose last failure is oldest are forgotten first).
    var capacity = 10_000

    private var failures: [String: [Date]] = [:]

    init(maximumFailures: Int = 5, window: TimeInterval = 15 * 60, capacity: Int = 10_000) {
        self.maximumFailures = maximumFailures
        self.window = window
        self.capacity = capacity
    }

    /// True when an attempt for `account` from `address` may be checked now.
    func allows(account: String, address: String, at now: Date) -> Bool {
        recent(Self.key(account: account), at: now) < maximumFailures
            && recent(Self.key(address: address), at: now) < maximumFailures
    }

    /// When the next attempt for `account` from `address` may be checked (nil: now).
    func retryTime(account: String, address: String, at now: Date) -> Date? {
        let times = [Self.key(account: account), Self.key(address: address)].compactMap { key -> Date? in
            let live = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
            guard live.count >= maximumFailures else { return nil }
            return live[live.count - maximumFailures] + window
        }
        return times.max()
    }

    mutating func recordFailure(account: String, address: String, at now: Date) {
        for key in [Self.key(account: account), Self.key(address: address)] {
            var times = (failures[key] ?? []).filter { now.timeIntervalSince($0) < window }
            times.append(now)
            failures[key] = Array(times.suffix(maximumFailures))
        }
        if failures.count > capacity { forgetOldest(at: now) }
    }

    /// A right password clears the account's failures (not the address's: one right password among many guesses
    /// from one place must not reopen it).
    mutating func recordSuccess(account: String) {
        failures[Self.key(account: account)] = nil
    }

    private func recent(_ key: String, at now: Date) -> Int {
        (failures[key] ?? []).count { now.timeIntervalSince($0) < window }
    }

    private mutating func forgetOldest(at now: Date) {
        failures = failures.filter { _, times in times.contains { now.timeIntervalSince($0) < window } }
        while failures.count > capacity,
            let oldest = failures.min(by: { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) })
        {
            failures[oldest.key] = nil
        }
    }

    private static func key(account: String) -> String { "account\u{0}" + account }
    private static func key(address: String) -> String { "address\u{0}" + address }
}
