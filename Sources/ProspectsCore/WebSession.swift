import Foundation

/// A browser's session of `prospects serve` as the store keeps it, so that every server over one store honours it:
/// its form token and who signed in on it. `key` is what the store finds it by: a digest of the cookie's secret, so
/// that the table gives no one a session to use.
public struct WebSession: Sendable, Hashable {
    public var key: String
    public var csrfToken: String
    /// The account signed in on this session; nil before sign-in.
    public var account: String?
    public var role: AccountRole?
    public var createdAt: Date
    public var lastUsedAt: Date

    public init(
        key: String, csrfToken: String, account: String? = nil, role: AccountRole? = nil, createdAt: Date,
        lastUsedAt: Date
    ) {
        self.key = key
        self.csrfToken = csrfToken
        self.account = account
        self.role = role
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A secret a server signs its visitors' form tokens with (schema 6), kept in the store so that every server over
/// it signs and checks alike. The newest signs; a rotation adds one, and tokens signed by the one before still pass.
public struct WebKey: Sendable, Hashable {
    public var id: Int64
    public var secret: String
    public var createdAt: Date

    public init(id: Int64, secret: String, createdAt: Date) {
        self.id = id
        self.secret = secret
        self.createdAt = createdAt
    }
}
