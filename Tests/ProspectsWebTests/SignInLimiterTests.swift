import Foundation
import Testing

@testable import ProspectsWeb

/// The sign-in limiter, with the time as a value.
@Suite struct SignInLimiterTests {
    let start = Date(timeIntervalSince1970: 1_780_000_000)

    @Test func fiveFailuresForAnAccountCloseItFromEveryAddressUntilTheWindowPasses() {
        var limiter = SignInLimiter(maximumFailures: 5, window: 900)
        for second in 0..<5 {
            #expect(limiter.allows(account: "ada", address: "10.0.0.\(second)", at: start + Double(second)))
            limiter.recordFailure(account: "ada", address: "10.0.0.\(second)", at: start + Double(second))
        }
        #expect(!limiter.allows(account: "ada", address: "10.0.0.99", at: start + 10))
        #expect(limiter.retryTime(account: "ada", address: "10.0.0.99", at: start + 10) == start + 900)
        #expect(limiter.allows(account: "bob", address: "10.0.0.99", at: start + 10), "another account is open")
        #expect(!limiter.allows(account: "ada", address: "10.0.0.99", at: start + 899))
        #expect(limiter.allows(account: "ada", address: "10.0.0.99", at: start + 900), "the oldest failure left")
    }

    @Test func fiveFailuresFromAnAddressCloseItForEveryAccount() {
        var limiter = SignInLimiter(maximumFailures: 5, window: 900)
        for index in 0..<5 { limiter.recordFailure(account: "user\(index)", address: "10.0.0.1", at: start) }
        #expect(!limiter.allows(account: "someone", address: "10.0.0.1", at: start + 1))
        #expect(limiter.allows(account: "someone", address: "10.0.0.2", at: start + 1))
    }

    @Test func aSuccessClearsTheAccountButNotTheAddress() {
        var limiter = SignInLimiter(maximumFailures: 3, window: 900)
        for _ in 0..<2 { limiter.recordFailure(account: "ada", address: "10.0.0.1", at: start) }
        limiter.recordSuccess(account: "ada")
        limiter.recordFailure(account: "ada", address: "10.0.0.2", at: start)
        limiter.recordFailure(account: "ada", address: "10.0.0.2", at: start)
        #expect(limiter.allows(account: "ada", address: "10.0.0.2", at: start), "two since the success")
        limiter.recordFailure(account: "eve", address: "10.0.0.1", at: start)
        #expect(!limiter.allows(account: "eve", address: "10.0.0.1", at: start), "the address kept its two")
    }

    @Test func itForgetsTheOldestKeysPastItsCapacity() {
        var limiter = SignInLimiter(maximumFailures: 1, window: 900, capacity: 4)
        for index in 0..<10 {
            limiter.recordFailure(account: "user\(index)", address: "10.0.1.\(index)", at: start + Double(index))
        }
        #expect(limiter.allows(account: "user0", address: "10.0.1.0", at: start + 11), "forgotten")
        #expect(!limiter.allows(account: "user9", address: "10.0.2.1", at: start + 11), "the newest kept")
    }
}
