import Crypto
import Foundation
import ProspectsCore
import ProspectsService
import SystemCalls

/// One browser's session: the synchronizer token its forms must send back, who signed in on it, and what an upload
/// left to show.
struct Session: Sendable {
    /// The cookie's secret of a signed-in session; for a visitor, `visitorPrefix` and the form cookie's nonce.
    let id: String
    let csrfToken: String
    /// The account signed in on this session; nil before sign-in (and always when serve needs none).
    var account: String?
    var role: AccountRole?
    /// The outcomes of the last upload, shown once by the scan page after its 303.
    var uploadReport: [UploadOutcome]?
    /// The codes the live camera has in view, so that one held in front of it counts once.
    var cameraCodes = CodeRepeatFilter()
    /// What the last import did, shown once by the import page after its 303.
    var importReport: ImportPage.Report?

    static let visitorPrefix = "form:"

    /// True for a visitor (no sign-in): nothing of it is in the store, its token is signed instead.
    var isVisitor: Bool { id.hasPrefix(Self.visitorPrefix) }
}

/// The sessions of this server. Only a sign-in begins one: it is kept in the store (`WebSessionStore`), so that
/// every `serve` over one store honours a session another began and ends it when another signs it out, in a
/// `SameSite=Lax`, `HttpOnly` cookie (Lax, so that a link from mail or another site keeps its reader signed in;
/// every change is a POST that needs the form token). A visitor (the sign-in page; every page when serve needs no
/// accounts) costs the store nothing: its form token is the HMAC-SHA-256 of a random nonce in its own cookie
/// (double submit) under a key the store keeps (`WebKey`, made once, rotatable). The store finds a session by a
/// digest of its cookie, so its table hands no one a session. A session unused for `idleTimeout` ends; past
/// `capacity` sessions of one account its least recently used are forgotten. What a page shows once after its 303
/// (upload and import reports) and the camera's codes stay in this process's memory, as bounded.
final class SessionStore: Sendable {
    static let cookieName = "prospects_session"
    /// The cookie holding a visitor's nonce, which its form token signs.
    static let formCookieName = "prospects_form"

    /// What a session holds in this process only.
    private struct Local: Sendable {
        var uploadReport: [UploadOutcome]?
        var cameraCodes = CodeRepeatFilter()
        var importReport: ImportPage.Report?
    }

    private struct LocalState: ~Copyable {
        var sessions: [String: Local] = [:]
        var order: [String] = []
    }

    /// The form-token keys as last read from the store (newest first) and when.
    private struct Keys: Sendable {
        var keys: [WebKey] = []
        var readAt = Date.distantPast
    }

    private let records: SessionRecords
    private let local = Locked(LocalState())
    private let keys = Locked(Keys())
    private let now: @Sendable () -> Date
    private let capacity: Int
    let idleTimeout: TimeInterval
    /// A use is written to the store at most this often per session, so that reading a page costs no write.
    private let touchEvery: TimeInterval
    /// How long the keys read are used before they are read again (another server may have rotated them).
    private let keysFor: TimeInterval = 60

    init(
        capacity: Int = 1_000, idleTimeout: TimeInterval = 12 * 3600, touchEvery: TimeInterval = 300,
        now: @escaping @Sendable () -> Date = Date.init, records: SessionRecords
    ) {
        self.capacity = capacity
        self.idleTimeout = idleTimeout
        self.touchEvery = touchEvery
        self.now = now
        self.records = records
    }

    /// The session the cookie names, if a server over this store made it and it has not ended.
    func session(id: String?) throws(StoreError) -> Session? {
        guard let id, !id.isEmpty, id.utf8.count <= 128, !id.hasPrefix(Session.visitorPrefix) else { return nil }
        let key = Self.key(of: id)
        let time = now()
        let stored = try records.session(key: key, at: time, idleTimeout: idleTimeout, touchEvery: touchEvery)
        guard let stored else { return nil }
        let held = local.withLock { $0.sessions[id] } ?? Local()
        return Session(
            id: id, csrfToken: stored.csrfToken, account: stored.account, role: stored.role,
            uploadReport: held.uploadReport, cameraCodes: held.cameraCodes, importReport: held.importReport)
    }

    /// The visitor whose form cookie holds `nonce` (a new nonce when it holds none that could be ours): its form
    /// token signed by the newest key. Writes nothing, unless the store has no key yet.
    func visitor(nonce given: String?) throws(StoreError) -> (session: Session, newNonce: String?) {
        var newNonce: String?
        let nonce: String
        if let given, Self.isToken(given) {
            nonce = given
        } else {
            nonce = Self.randomToken()
            newNonce = nonce
        }
        let key = try currentKeys()[0]
        let token = "\(key.id)." + HMACSHA256.hex(key: Array(key.secret.utf8), Array(nonce.utf8))
        let id = Session.visitorPrefix + nonce
        let held = local.withLock { $0.sessions[id] } ?? Local()
        return (
            Session(
                id: id, csrfToken: token, uploadReport: held.uploadReport, cameraCodes: held.cameraCodes,
                importReport: held.importReport), newNonce
        )
    }

    /// True when `sent` is the form token of `visitor`'s nonce under one of the store's two newest keys.
    func isValidToken(_ sent: String, for visitor: Session) throws(StoreError) -> Bool {
        guard visitor.isVisitor, let dot = sent.firstIndex(of: "."), let id = Int64(sent[..<dot]) else { return false }
        let nonce = Array(visitor.id.dropFirst(Session.visitorPrefix.count).utf8)
        var known = try currentKeys()
        if let newest = known.first, id > newest.id { known = try currentKeys(reading: true) }
        guard let key = known.first(where: { $0.id == id }) else { return false }
        let expected = "\(key.id)." + HMACSHA256.hex(key: Array(key.secret.utf8), nonce)
        return Self.sameToken(sent, expected)
    }

    /// A collector stamp for `account`, issued now under the newest key (`CollectorStamp`).
    func collectorStamp(for account: String) throws(StoreError) -> String {
        CollectorStamp(account: account, issuedAt: now()).signed(with: try currentKeys()[0])
    }

    /// What the collector stamp `text` states, checked against the store's two newest keys at this time.
    func verifyCollectorStamp(_ text: String) throws(StoreError) -> Result<CollectorStamp, CollectorStampError> {
        var known = try currentKeys()
        let parts = text.split(separator: ".", maxSplits: 2)
        if parts.count == 3, let id = Int64(parts[1]), let newest = known.first, id > newest.id {
            known = try currentKeys(reading: true)
        }
        return CollectorStamp.verify(text, keys: known, now: now())
    }

    /// Adds a new form-token key: the newest from then on, for every server over the store (each reads the keys
    /// again within a minute); tokens under the one before still pass, older ones no longer.
    func rotateKey() throws(StoreError) {
        let time = now()
        try records.addWebKey(secret: Self.randomToken(), at: time)
        _ = try currentKeys(reading: true)
    }

    /// The two newest keys, read from the store at most every `keysFor` (or now, when `reading`); the first is made
    /// here when the store has none.
    private func currentKeys(reading: Bool = false) throws(StoreError) -> [WebKey] {
        let time = now()
        if !reading,
            let cached = keys.withLock({ state -> [WebKey]? in
                state.keys.isEmpty || time.timeIntervalSince(state.readAt) > keysFor ? nil : state.keys
            })
        {
            return cached
        }
        let read = try records.webKeys(limit: 2, makingOneWith: Self.randomToken, at: time)
        guard !read.isEmpty else { throw .unavailable("the store keeps no key for form tokens") }
        keys.withLock { $0 = Keys(keys: read, readAt: time) }
        return read
    }

    /// A new session with fresh random id and token, signed in as `account`.
    func create(signingIn account: Account) throws(StoreError) -> Session {
        let session = Session(
            id: Self.randomToken(), csrfToken: Self.randomToken(), account: account.name, role: account.role)
        let time = now()
        let stored = WebSession(
            key: Self.key(of: session.id), csrfToken: session.csrfToken, account: session.account, role: session.role,
            createdAt: time, lastUsedAt: time)
        // The expired ones go now and then, not on every new session: they are refused when met anyway.
        try records.add(
            stored, capacity: capacity, forgettingUsedBefore: Int.random(in: 0..<64) == 0 ? time - idleTimeout : nil)
        return session
    }

    /// Ends `id` (when it was a stored session) and starts a new session, with a new id and token, signed in as
    /// `account`: an id a browser was handed before signing in (or planted in it) is worth nothing after.
    func rotate(_ id: String, signingIn account: Account) throws(StoreError) -> Session {
        try remove(id)
        return try create(signingIn: account)
    }

    /// Ends a session (sign-out), for every server over the store.
    func remove(_ id: String) throws(StoreError) {
        if !id.hasPrefix(Session.visitorPrefix) {
            let key = Self.key(of: id)
            try records.remove(key: key)
        }
        local.withLock { state in
            guard state.sessions.removeValue(forKey: id) != nil else { return }
            state.order.removeAll { $0 == id }
        }
    }

    /// Changes what this process holds of a session (its reports and camera codes); the id, token and account are
    /// the store's.
    func update(_ id: String, _ change: (inout Session) -> Void) {
        local.withLock { state in
            let held = state.sessions[id] ?? Local()
            var session = Session(
                id: id, csrfToken: "", uploadReport: held.uploadReport, cameraCodes: held.cameraCodes,
                importReport: held.importReport)
            change(&session)
            if state.sessions.updateValue(
                Local(
                    uploadReport: session.uploadReport, cameraCodes: session.cameraCodes,
                    importReport: session.importReport), forKey: id) == nil
            {
                state.order.append(id)
                if state.order.count > 10_000 { state.sessions[state.order.removeFirst()] = nil }
            }
        }
    }

    /// What the store finds a session by: SHA-256 of its cookie's secret.
    static func key(of id: String) -> String {
        SHA256.hex(Array(id.utf8))
    }

    /// The `Set-Cookie` value for `session`; `Secure` when served over TLS.
    static func cookie(for session: Session, secure: Bool = false) -> String {
        "\(cookieName)=\(session.id); Path=/; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` value for a visitor's nonce.
    static func formCookie(nonce: String, secure: Bool = false) -> String {
        "\(formCookieName)=\(nonce); Path=/; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// True for 64 lowercase hex digits, as `randomToken` makes.
    static func isToken(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// 32 random bytes in hex, from the system's secure generator (getrandom).
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }

    /// Compares two tokens in time that does not depend on where they differ.
    static func sameToken(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
