import Foundation

/// Decides when a sign-in may be checked, after failures (OWASP's Authentication Cheat Sheet): failures are counted
/// per account and per (address, account), and each count answers with a delay that doubles, not a lockout. A
/// delay only ever follows a failure and lasts at most `maximumAccountDelay` for the account as a whole, which the
/// one who failed waits too, so no one can keep an account shut longer than they wait themselves; another account
/// from the same address (a booth behind one NAT) is not slowed at all. Pure: the time is a value the caller passes.
struct SignInThrottle: Sendable {
    /// Failures of one account from one address before the first delay, the first delay, and the longest.
    var freePairFailures = 3
    var maximumPairDelay: TimeInterval = 15 * 60
    /// Failures of one account from every address before the first delay, and the longest.
    var freeAccountFailures = 10
    var maximumAccountDelay: TimeInterval = 60
    /// A count untouched this long is forgotten.
    var memory: TimeInterval = 24 * 3600
    /// Counts remembered at most (the ones whose last failure is oldest are forgotten first).
    var capacity = 10_000

    /// Consecutive failures and the time of the last.
    private struct Count: Sendable {
        var failures: Int
        var last: Date
    }

    private var counts: [String: Count] = [:]

    init() {}

    /// The delay after `failures` failures when `free` of them cost nothing: 1 s, then doubling, up to `maximum`.
    static func delay(failures: Int, free: Int, maximum: TimeInterval) -> TimeInterval {
        guard failures >= free else { return 0 }
        return min(maximum, pow(2, Double(min(failures - free, 30))))
    }

    /// When an attempt for `account` from `address` may be checked; nil: now.
    func retryTime(account: String, address: String, at now: Date) -> Date? {
        var until: Date?
        if let pair = live(Self.key(account: account, address: address), at: now) {
            let wait = Self.delay(failures: pair.failures, free: freePairFailures, maximum: maximumPairDelay)
            until = pair.last + wait
        }
        if let whole = live(Self.key(account: account), at: now) {
            let wait = Self.delay(failures: whole.failures, free: freeAccountFailures, maximum: maximumAccountDelay)
            until = max(until ?? .distantPast, whole.last + wait)
        }
        guard let until, until > now else { return nil }
        return until
    }

    /// Counts a wrong password (only for an attempt that was allowed: one refused while waiting costs nothing).
    mutating func recordFailure(account: String, address: String, at now: Date) {
        for key in [Self.key(account: account, address: address), Self.key(account: account)] {
            let failures = (live(key, at: now)?.failures ?? 0) + 1
            counts[key] = Count(failures: failures, last: now)
        }
        if counts.count > capacity { forgetOldest(at: now) }
    }

    /// A right password clears the account's counts, from every address.
    mutating func recordSuccess(account: String, address: String) {
        counts[Self.key(account: account)] = nil
        counts[Self.key(account: account, address: address)] = nil
    }

    private func live(_ key: String, at now: Date) -> Count? {
        guard let count = counts[key], now.timeIntervalSince(count.last) < memory else { return nil }
        return count
    }

    private mutating func forgetOldest(at now: Date) {
        counts = counts.filter { now.timeIntervalSince($0.value.last) < memory }
        guard counts.count > capacity else { return }
        let keep = counts.sorted { $0.value.last > $1.value.last }.prefix(capacity)
        counts = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
    }

    private static func key(account: String) -> String { "account\u{0}" + account }
    private static func key(account: String, address: String) -> String { "pair\u{0}" + address + "\u{0}" + account }
}
