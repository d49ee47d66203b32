import ProspectStore
import ProspectsService
import Synchronization

/// One browser's session: the synchronizer token its forms must send back, who signed in on it, and what an upload
/// left to show.
struct Session: Sendable {
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
}

/// The sessions of this server, in memory: a browser gets one on its first page, in a `SameSite=Strict`, `HttpOnly`
/// cookie. Without accounts a session proves nothing about who someone is; it binds each form to the page it came
/// from (CSRF). The oldest sessions are forgotten past `capacity`.
final class SessionStore: Sendable {
    static let cookieName = "prospects_session"

    private struct State: ~Copyable {
        var sessions: [String: Session] = [:]
        var order: [String] = []
    }

    private let state = Mutex(State())
    private let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The session the cookie names, if this server made it.
    func session(id: String?) -> Session? {
        guard let id else { return nil }
        return state.withLock { $0.sessions[id] }
    }

    /// A new session with fresh random id and token.
    func create() -> Session {
        let session = Session(id: Self.randomToken(), csrfToken: Self.randomToken())
        state.withLock { state in
            state.sessions[session.id] = session
            state.order.append(session.id)
            if state.order.count > capacity {
                let dropped = state.order.removeFirst()
                state.sessions[dropped] = nil
            }
        }
        return session
    }

    /// Ends `id` and starts a new session, with a new id and token, signed in as `account`: an id a browser was
    /// handed before signing in (or planted in it) is worth nothing after.
    func rotate(_ id: String, signingIn account: Account) -> Session {
        remove(id)
        var session = create()
        session.account = account.name
        session.role = account.role
        update(session.id) {
            $0.account = account.name
            $0.role = account.role
        }
        return session
    }

    /// Forgets a session (sign-out).
    func remove(_ id: String) {
        state.withLock { state in
            guard state.sessions.removeValue(forKey: id) != nil else { return }
            state.order.removeAll { $0 == id }
        }
    }

    /// Changes a session in place (nothing when it was forgotten meanwhile).
    func update(_ id: String, _ change: (inout Session) -> Void) {
        state.withLock { state in
            guard var session = state.sessions[id] else { return }
            change(&session)
            state.sessions[id] = session
        }
    }

    /// The `Set-Cookie` value for `session`; `Secure` when served over TLS.
    static func cookie(for session: Session, secure: Bool = false) -> String {
        "\(cookieName)=\(session.id); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
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
