import Foundation
import ProspectsCore
import Testing

@testable import ProspectsWeb

/// The collector stamp's verification, with the keys and the time as values: only a stamp this server signed, not
/// altered, under a key it still keeps, and issued within the last 7 days names who scanned.
@Suite struct CollectorStampTests {
    let issued = Date(timeIntervalSince1970: 1_780_000_000)
    let key = WebKey(id: 3, secret: "a secret of the store", createdAt: Date(timeIntervalSince1970: 1_770_000_000))
    let newer = WebKey(id: 4, secret: "the key rotated in", createdAt: Date(timeIntervalSince1970: 1_779_000_000))

    func verify(_ text: String, keys: [WebKey]? = nil, after seconds: TimeInterval = 60)
        -> Result<CollectorStamp, CollectorStampError>
    {
        CollectorStamp.verify(text, keys: keys ?? [newer, key], now: issued + seconds)
    }

    @Test func aStampSignedByAKeptKeyNamesItsAccountForSevenDays() {
        let stamp = CollectorStamp(account: "Zoë d'Arc", issuedAt: issued).signed(with: key)
        #expect(stamp.hasPrefix("c1.3.1780000000."))
        #expect(verify(stamp) == .success(CollectorStamp(account: "Zoë d'Arc", issuedAt: issued)))
        #expect(
            verify(stamp, after: CollectorStamp.lifetime)
                == .success(CollectorStamp(account: "Zoë d'Arc", issuedAt: issued)))
        #expect(verify(stamp, after: CollectorStamp.lifetime + 1) == .failure(.expired))
        #expect(verify(stamp, after: -CollectorStamp.clockSkew).map(\.account) == .success("Zoë d'Arc"))
        #expect(verify(stamp, after: -CollectorStamp.clockSkew - 1) == .failure(.issuedInTheFuture))
    }

    @Test func anAlteredStampIsRefused() {
        let stamp = CollectorStamp(account: "ada", issuedAt: issued).signed(with: key)
        var parts = stamp.split(separator: ".").map(String.init)
        parts[3] = "626f62"  // "bob"
        #expect(verify(parts.joined(separator: ".")) == .failure(.badSignature))
        parts = stamp.split(separator: ".").map(String.init)
        parts[2] = "1780600000"  // a week later, to last longer
        #expect(verify(parts.joined(separator: ".")) == .failure(.badSignature))
        let forged = WebKey(id: 3, secret: "a guess", createdAt: issued)
        #expect(
            verify(CollectorStamp(account: "ada", issuedAt: issued).signed(with: forged)) == .failure(.badSignature))
    }

    @Test func aStampUnderAKeyNoLongerKeptIsRefused() {
        let stamp = CollectorStamp(account: "ada", issuedAt: issued).signed(with: key)
        #expect(verify(stamp, keys: [newer]) == .failure(.unknownKey))
        #expect(verify(stamp, keys: []) == .failure(.unknownKey))
    }

    @Test func textThatIsNoStampIsMalformed() {
        let stamp = CollectorStamp(account: "ada", issuedAt: issued).signed(with: key)
        for text in [
            "", "ada", "c1.3.1780000000.616461", "c2" + stamp.dropFirst(2), stamp + ".x",
            "c1.3.1780000000.zz." + String(repeating: "0", count: 64),
            "c1.3.1780000000.." + String(repeating: "0", count: 64),
            "c1.x.1780000000.616461.00", "c1.3.soon.616461.00", "c1.3.1780000000.6164c3.00",
            String(repeating: "c1.", count: 400),
        ] {
            #expect(verify(text) == .failure(.malformed), "\(text)")
        }
    }
}
