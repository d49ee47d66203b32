import Glibc
import ProspectsCore
import ProspectsService

/// `prospects user`: the accounts that may sign in to `prospects serve`, kept in the store.
struct UserCommand: Subcommand {
    static let name = "user"
    static let abstract = "Add, list or remove the accounts that sign in to 'serve' (staff or admin)."
    static let help = """
        USAGE: prospects user add <name> --role staff|admin [--store <location>]
               prospects user list [--store <location>]
               prospects user remove <name> [--store <location>]

        ARGUMENTS:
          <name>                  1 to 64 letters, digits, '.', '-', '_' or '@'

        OPTIONS:
        \(storeOptionHelp)
          --role <role>           staff: see, scan, mark, note and rate; admin: also delete, import, export
          -h, --help              show this help

        'add' reads the password from the first line of stdin (at least \(ProspectsService.minimumPasswordLength) \
        characters; not echoed on a terminal) and keeps only a slow salted hash of it (PBKDF2-HMAC-SHA256, \
        \(PasswordHash.defaultIterations) rounds). 'serve' on an address other than loopback needs at least one account.
        Exit status: 0 on success, 64 for a bad name or option, 65 for a name taken or unknown, or a short password.
        """
    static let flags: Set<String> = []
    static let options: Set<String> = ["--store", "--role"]
    static let optionValues: [String: [String]] = ["--role": AccountRole.allCases.map(\.rawValue)]

    enum Action {
        case add(name: String, role: AccountRole)
        case list
        case remove(name: String)
    }

    let arguments: CommandLineArguments
    let action: Action

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        let words = arguments.positionals
        switch (words.first, words.count) {
        case ("add", 2):
            guard let roleText = arguments.value("--role") else {
                throw UsageError("user add needs --role staff|admin")
            }
            guard let role = AccountRole(rawValue: roleText) else {
                throw UsageError("--role must be staff or admin, not \(roleText)")
            }
            guard ProspectsService.isValidAccountName(words[1]) else {
                throw UsageError(AccountError.invalidName(words[1]).message)
            }
            action = .add(name: words[1], role: role)
        case ("list", 1):
            action = .list
        case ("remove", 2):
            action = .remove(name: words[1])
        default:
            throw UsageError("use: user add <name> --role staff|admin, user list, or user remove <name>")
        }
        if case .add = action {
        } else if arguments.value("--role") != nil {
            throw UsageError("--role goes with user add")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let service = context.service(arguments)
        do {
            switch action {
            case .add(let name, let role):
                let password = Self.readPassword(prompt: isatty(STDIN_FILENO) == 1 ? context : nil)
                _ = try service.addAccount(name: name, role: role, password: password)
                context.console.out.line("added \(name) (\(role.rawValue))")
            case .list:
                for account in try service.accounts() {
                    context.console.out.line("\(account.name)\t\(account.role.rawValue)")
                }
            case .remove(let name):
                try service.removeAccount(named: name)
                context.console.out.line("removed \(name)")
            }
        } catch let error as AccountError {
            if case .store(let storeError) = error { throw storeError }
            throw CommandFailure(message: error.message, status: .dataError)
        }
        return .success
    }

    /// The first line of stdin; on a terminal, asked for on stderr and not echoed.
    private static func readPassword(prompt context: CommandContext?) -> String {
        guard let context else { return readLine(strippingNewline: true) ?? "" }
        context.console.err.partial("password: ")
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            context.console.err.line("")
        }
        return readLine(strippingNewline: true) ?? ""
    }
}
