import Foundation
import Testing

@testable import ProspectsWeb

/// The sign-in throttle, with the time as a value: growing delays per (address, account) and per account, never a
/// lockout of an address or of anyone who waits.
@Suite struct SignInThrottleTests {
    let start = Date(timeIntervalSince1970: 1_780_000_000)

    @Test func theDelaysDoubleAfterTheFreeFailuresUpToTheirMaximum() {
        #expect(SignInThrottle.delay(failures: 2, free: 3, maximum: 900) == 0)
        #expect(SignInThrottle.delay(failures: 3, free: 3, maximum: 900) == 1)
        #expect(SignInThrottle.delay(failures: 4, free: 3, maximum: 900) == 2)
        #expect(SignInThrottle.delay(failures: 10, free: 3, maximum: 900) == 128)
        #expect(SignInThrottle.delay(failures: 13, free: 3, maximum: 900) == 900)
        #expect(SignInThrottle.delay(failures: 1_000, free: 3, maximum: 900) == 900)
    }

    @Test func failuresFromOneAddressDelayThatAccountThereAndNoOtherAccount() {
        var throttle = SignInThrottle()
        var time = start
        var waits: [TimeInterval] = []
        for _ in 0..<10 {
            if let retry = throttle.retryTime(account: "ada", address: "10.0.0.1", at: time) {
                waits.append(retry.timeIntervalSince(time))
                time = retry
            }
            throttle.recordFailure(account: "ada", address: "10.0.0.1", at: time)
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 64], "three free, then doubling")
        #expect(throttle.retryTime(account: "ada", address: "10.0.0.1", at: time) == time + 128)
        #expect(throttle.retryTime(account: "bob", address: "10.0.0.1", at: time) == nil, "the booth's other account")
        // From another address only the account's own delay counts: ten failures are its free ones.
        #expect(throttle.retryTime(account: "ada", address: "10.0.0.2", at: time) == time + 1)
        #expect(throttle.retryTime(account: "ada", address: "10.0.0.2", at: time + 1) == nil)
    }

    @Test func nobodyKeepsAnAccountShutLongerThanTheyWaitThemselves() {
        var throttle = SignInThrottle()
        var time = start
        // An attacker guessing from ever new addresses, each time as soon as allowed.
        for index in 0..<200 {
            let address = "192.0.2.\(index)"
            if let retry = throttle.retryTime(account: "ada", address: address, at: time) {
                // Whatever they did before, the account is shut no longer than its maximum after their last try.
                #expect(retry.timeIntervalSince(time) <= throttle.maximumAccountDelay)
                time = retry
            }
            throttle.recordFailure(account: "ada", address: address, at: time)
        }
        let lastTry = time
        let retry = throttle.retryTime(account: "ada", address: "198.51.100.7", at: lastTry)
        #expect(retry == lastTry + throttle.maximumAccountDelay, "the owner waits what the attacker waits")
        #expect(throttle.retryTime(account: "ada", address: "198.51.100.7", at: lastTry + 60) == nil)
    }

    @Test func aRightPasswordClearsTheAccountsCountsAndOldCountsAreForgotten() {
        var throttle = SignInThrottle()
        for _ in 0..<5 { throttle.recordFailure(account: "ada", address: "10.0.0.1", at: start) }
        #expect(throttle.retryTime(account: "ada", address: "10.0.0.1", at: start) != nil)
        throttle.recordSuccess(account: "ada", address: "10.0.0.1")
        #expect(throttle.retryTime(account: "ada", address: "10.0.0.1", at: start) == nil)
        for _ in 0..<5 { throttle.recordFailure(account: "bob", address: "10.0.0.1", at: start) }
        #expect(throttle.retryTime(account: "bob", address: "10.0.0.1", at: start + 86_400) == nil)
    }

    @Test func theCountsKeptAreBounded() {
        var throttle = SignInThrottle()
        throttle.capacity = 100
        for index in 0..<1_000 {
            throttle.recordFailure(account: "user\(index)", address: "10.0.0.1", at: start + Double(index))
        }
        #expect(throttle.retryTime(account: "user999", address: "10.0.0.1", at: start + 999) == nil)
        for _ in 0..<3 { throttle.recordFailure(account: "user999", address: "10.0.0.1", at: start + 1_000) }
        #expect(throttle.retryTime(account: "user999", address: "10.0.0.1", at: start + 1_000) != nil)
    }
}
