import Foundation
import HTTPServer
import ProspectsCore
import ProspectsService
import SystemCalls

/// Sessions: signing in and out.
extension WebApplication {
    /// The sign-in form; once signed in, 303 to the list.
    func signInPage(_ context: Context) -> HTTPResponse {
        if configuration.requiresSignIn, context.session.account != nil { return .redirect(to: "/") }
        return page(
            SignInPage(
                csrfToken: context.session.csrfToken,
                next: Self.samePath(context.request.queryValue("next")) ?? ""
            ).html)
    }

    /// Ends the session, then 303 to the sign-in page (to the list when serve needs no accounts).
    func signOut(_ context: Context) throws -> HTTPResponse {
        try sessions.remove(context.session.id)
        return .redirect(to: configuration.requiresSignIn ? "/signin" : "/")
    }

    /// Checks a name and password, unless `SignInThrottle` says to wait (429 with `Retry-After`); on success the
    /// session is replaced by a new one signed in (its cookie in the answer) and the browser goes where it asked.
    func signIn(_ context: Context) throws -> HTTPResponse {
        guard configuration.requiresSignIn else { return .redirect(to: "/") }
        let name = context.request.form["name"] ?? ""
        let password = context.request.form["password"] ?? ""
        let address = clientAddress(context.request)
        let time = now()
        if let retry = limiter.withLock({ $0.retryTime(account: name, address: address, at: time) }) {
            let seconds = max(1, Int(retry.timeIntervalSince(time).rounded(.up)))
            let wait =
                seconds < 120 ? "\(seconds) second\(seconds == 1 ? "" : "s")" : "\((seconds + 59) / 60) minutes"
            var response = page(
                SignInPage(
                    csrfToken: context.session.csrfToken,
                    problem: "Too many failed attempts for this name; try again in \(wait).", name: name,
                    next: Self.samePath(context.request.form["next"]) ?? ""
                ).html, status: 429)
            response.headers.set("Retry-After", String(Int(retry.timeIntervalSince(time).rounded(.up))))
            return response
        }
        let account = try services.withService { service in try service.authenticate(name: name, password: password) }
        guard let account else {
            limiter.withLock { $0.recordFailure(account: name, address: address, at: time) }
            return page(
                SignInPage(
                    csrfToken: context.session.csrfToken, problem: "Wrong name or password.", name: name,
                    next: Self.samePath(context.request.form["next"]) ?? ""
                ).html, status: 401)
        }
        limiter.withLock { $0.recordSuccess(account: name, address: address) }
        let session = try sessions.rotate(context.session.id, signingIn: account)
        var response = HTTPResponse.redirect(to: Self.samePath(context.request.form["next"]) ?? "/")
        response.headers.append("Set-Cookie", SessionStore.cookie(for: session, secure: isSecure(context.request)))
        return response
    }
}
