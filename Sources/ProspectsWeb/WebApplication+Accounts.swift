import Foundation
import HTTPServer
import ProspectsCore
import ProspectsService

/// Accounts: the users page and its forms (admins only, by the route table).
extension WebApplication {
    func usersPage(_ context: Context, message: String? = nil, problem: String? = nil, typedName: String = "")
        throws -> HTTPResponse
    {
        let accounts = try services.withService { try $0.accounts() }
        return page(
            UsersPage(
                accounts: accounts, csrfToken: context.session.csrfToken, viewer: context.session.account,
                message: message, problem: problem, typedName: typedName
            ).html, status: problem == nil ? 200 : 400)
    }

    /// `prospects user add` and `user remove`, from the users page's forms.
    func changeUsers(_ action: String, _ context: Context) throws -> HTTPResponse {
        let form = context.request.form
        let name = form["name"] ?? ""
        var role: AccountRole?
        if action == "add" {
            guard let chosen = form["role"].flatMap(AccountRole.init(rawValue:)) else {
                return .text("role must be staff or admin\n", status: 400)
            }
            role = chosen
        }
        let failure = services.withService { service -> AccountError? in
            do throws(AccountError) {
                if let role {
                    _ = try service.addAccount(name: name, role: role, password: form["password"] ?? "")
                } else {
                    try service.removeAccount(named: name)
                }
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            if case .store(let error) = failure { throw error }
            return try usersPage(context, problem: failure.message, typedName: role == nil ? "" : name)
        }
        return .redirect(to: "/users")
    }
}
