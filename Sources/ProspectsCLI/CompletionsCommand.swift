import ProspectsCore

/// `prospects completions`: a shell's completion script for `prospects`, made from the command and option tables.
struct CompletionsCommand: Subcommand {
    static let name = "completions"
    static let abstract = "Print the shell completion script for bash, zsh or fish."
    static let help = """
        USAGE: prospects completions bash|zsh|fish

        ARGUMENTS:
          <shell>                 bash: source it, or install it as bash-completion/completions/prospects;
                                  zsh: install it as _prospects in a folder of $fpath (site-functions);
                                  fish: install it as fish/vendor_completions.d/prospects.fish

        OPTIONS:
          -h, --help              show this help

        Scripts/install puts each one where its shell looks, and the manual page (prospects help --man) too.
        """
    static let flags: Set<String> = []
    static let options: Set<String> = []

    let shell: ShellCompletion.Shell

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError("completions needs one shell: bash, zsh or fish")
        }
        guard let shell = ShellCompletion.Shell(rawValue: arguments.positionals[0]) else {
            throw UsageError(
                "unknown shell '\(SafeText.escaped(arguments.positionals[0], limit: 80))': give bash, zsh or fish")
        }
        self.shell = shell
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        context.console.out.line(ShellCompletion.script(for: shell))
        return .success
    }
}
