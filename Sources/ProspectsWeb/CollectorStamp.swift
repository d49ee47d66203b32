import Crypto
import Foundation
import ProspectsCore

/// The server's signed statement "scans by `account`, issued at `issuedAt`", which the phone keeps and stores with
/// each scan it queues, so that a scan made offline is collected by who was signed in on the phone when it was made,
/// not by whoever's session sends it later. Signed (HMAC-SHA-256) under the form tokens' keys (`WebKey`): a user
/// cannot make one for someone else. Text: `c1.<key id>.<issued, Unix seconds>.<account, UTF-8 in hex>.<mac>`.
struct CollectorStamp: Sendable, Hashable {
    var account: String
    var issuedAt: Date

    /// How long a stamp vouches for its scans: a phone offline for a week of an event still sends them as made.
    static let lifetime: TimeInterval = 7 * 24 * 3600
    /// A stamp dated later than now by more than this (a clock moved back) is refused.
    static let clockSkew: TimeInterval = 300
    private static let version = "c1"

    /// The stamp's text, signed by `key`.
    func signed(with key: WebKey) -> String {
        let body = [
            Self.version, String(key.id), String(Int64(issuedAt.timeIntervalSince1970.rounded(.down))),
            Self.hex(Array(account.utf8)),
        ].joined(separator: ".")
        return body + "." + Self.mac(body, key: key)
    }

    /// The stamp `text` states, when one of `keys` signed it and it is neither expired nor dated in the future:
    /// pure, so that what passes is decided by the text, the keys and the time alone.
    static func verify(
        _ text: String, keys: [WebKey], now: Date, lifetime: TimeInterval = lifetime
    ) -> Result<CollectorStamp, CollectorStampError> {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard text.utf8.count <= 1_024, parts.count == 5, parts[0] == version, let keyID = Int64(parts[1]),
            let seconds = Int64(parts[2]), let nameBytes = bytes(ofHex: parts[3]), !nameBytes.isEmpty,
            let account = String(validating: nameBytes, as: UTF8.self)
        else { return .failure(.malformed) }
        guard let key = keys.first(where: { $0.id == keyID }) else { return .failure(.unknownKey) }
        let body = parts[0..<4].joined(separator: ".")
        guard SessionStore.sameToken(parts[4], mac(body, key: key)) else { return .failure(.badSignature) }
        let issuedAt = Date(timeIntervalSince1970: TimeInterval(seconds))
        guard issuedAt.timeIntervalSince(now) <= clockSkew else { return .failure(.issuedInTheFuture) }
        guard now.timeIntervalSince(issuedAt) <= lifetime else { return .failure(.expired) }
        return .success(CollectorStamp(account: account, issuedAt: issuedAt))
    }

    private static func mac(_ body: String, key: WebKey) -> String {
        HMACSHA256.hex(key: Array(key.secret.utf8), Array(("prospects collector stamp\n" + body).utf8))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    private static func bytes(ofHex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2), digits.count <= 512 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 48...57: digit - 48
        case 97...102: digit - 87
        default: nil
        }
    }
}

/// Why a queued scan's collector stamp was not taken; the scan is then collected by the session that sends it.
enum CollectorStampError: Error, Hashable, Sendable {
    /// Not a stamp this server makes.
    case malformed
    /// Signed by a key no longer kept (two rotations ago), or never this store's.
    case unknownKey
    /// Its signature does not match: altered, or made by someone without the key.
    case badSignature
    /// Issued more than `CollectorStamp.lifetime` ago.
    case expired
    /// Dated later than now (beyond `CollectorStamp.clockSkew`).
    case issuedInTheFuture
    /// Its account no longer exists.
    case unknownAccount

    /// The reason's name in the sync's answer (`collectorRefused`).
    var code: String {
        switch self {
        case .malformed: "malformed"
        case .unknownKey: "unknownKey"
        case .badSignature: "badSignature"
        case .expired: "expired"
        case .issuedInTheFuture: "issuedInTheFuture"
        case .unknownAccount: "unknownAccount"
        }
    }

    var message: String {
        switch self {
        case .malformed: "the collector stamp is not one this server makes"
        case .unknownKey: "the collector stamp's key is no longer kept"
        case .badSignature: "the collector stamp's signature does not match"
        case .expired: "the collector stamp is older than 7 days"
        case .issuedInTheFuture: "the collector stamp is dated in the future"
        case .unknownAccount: "the collector stamp's account no longer exists"
        }
    }
}
