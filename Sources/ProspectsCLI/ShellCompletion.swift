import Foundation

/// Completion scripts for bash, zsh and fish, made from the same tables `--help` is: the subcommands, the options
/// each one's help lists, and the words an option takes. An option not in a command's help (watch's hidden
/// `--decoder-worker`) is not offered.
enum ShellCompletion {
    enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// What completion knows of one subcommand.
    struct Command {
        var name: String
        var abstract: String
        /// Every option, with its dashes, sorted.
        var options: [String]
        /// The options that take a value; the others are flags.
        var takingValues: Set<String>
        /// The words an option takes, when it takes one of a few.
        var values: [String: [String]]
        /// The words its arguments are (`help`: commands, `completions`: shells); empty: files and anything else.
        var arguments: [String]
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    static var commands: [Command] {
        var commands: [Command] = []
        for command in ProspectsCommand.subcommands {
            let arguments = command.name == CompletionsCommand.name ? Shell.allCases.map { $0.rawValue } : []
            commands.append(
                Command(
                    name: command.name, abstract: command.abstract, options: documentedOptions(command),
                    takingValues: command.options, values: command.optionValues, arguments: arguments))
        }
        commands.append(
            Command(
                name: "help", abstract: "Show the help of a subcommand, or with --man the manual page.",
                options: ["--man"], takingValues: [], values: [:],
                arguments: ProspectsCommand.subcommands.map { $0.name }))
        return commands
    }

    /// The options the help of `command` lists, with `-h` and `--help`, sorted.
    static func documentedOptions(_ command: any Subcommand.Type) -> [String] {
        (command.flags.union(command.options).filter { command.help.contains($0) } + ["-h", "--help"]).sorted()
    }

    /// What may come before a subcommand.
    static let globalOptions = ["--help", "--store", "--version", "-h"]

    /// One `case` arm per command, for bash and zsh alike: an inner `case` on `previousWord` completing the values of
    /// the options that take one (`valueAction` of their listed values), then the lines `rest` gives.
    private static func commandCases(
        previousWord: String, valueAction: ([String]?) -> String, rest: (Command) -> [String]
    ) -> String {
        commands.map { command in
            var lines = ["        \(command.name))"]
            let valued = command.options.filter { command.takingValues.contains($0) }
            if !valued.isEmpty {
                lines.append("            case \(previousWord) in")
                for option in valued {
                    lines.append("                \(option)) \(valueAction(command.values[option])) ;;")
                }
                lines.append("            esac")
            }
            return (lines + rest(command)).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    // MARK: bash

    private static func bash() -> String {
        let cases = commandCases(previousWord: "$prev") { values in
            (values.map { "COMPREPLY=($(compgen -W \"\($0.joined(separator: " "))\" -- \"$cur\")); " } ?? "") + "return"
        } rest: { command in
            var lines = ["            if [[ $cur == -* ]]; then"]
            lines.append(
                "                COMPREPLY=($(compgen -W \"\(command.options.joined(separator: " "))\" -- \"$cur\"))")
            if !command.arguments.isEmpty {
                lines.append("            else")
                lines.append(
                    "                COMPREPLY=($(compgen -W \"\(command.arguments.joined(separator: " "))\" -- \"$cur\"))"
                )
            }
            lines.append("            fi ;;")
            return lines
        }
        let names = commands.map(\.name).joined(separator: " ")
        return """
            # bash completion for prospects(1), made by `prospects completions bash`.
            _prospects() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command= i
                COMPREPLY=()
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case ${COMP_WORDS[i]} in
                        --store) ((i++)) ;;
                        -*) ;;
                        *) command=${COMP_WORDS[i]}; break ;;
                    esac
                done
                case $command in
                    "")
                        [[ $prev == --store ]] && return
                        COMPREPLY=($(compgen -W "\(names) \(globalOptions.joined(separator: " "))" -- "$cur")) ;;
            \(cases)
                esac
            }
            complete -o bashdefault -o default -F _prospects prospects
            """
    }

    // MARK: zsh

    private static func zsh() -> String {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let described = commands.map { "        " + quoted("\($0.name):\($0.abstract)") }.joined(separator: "\n")
        let cases = commandCases(previousWord: "$words[CURRENT-1]") { values in
            (values.map { "compadd -- \($0.joined(separator: " "))" } ?? "_files") + "; return"
        } rest: { command in
            let arguments =
                command.arguments.isEmpty ? "_files" : "compadd -- \(command.arguments.joined(separator: " "))"
            return [
                "            if [[ $PREFIX == -* ]]; then",
                "                compadd -- \(command.options.joined(separator: " "))",
                "            else",
                "                \(arguments)",
                "            fi ;;",
            ]
        }
        return """
            #compdef prospects
            # zsh completion for prospects(1), made by `prospects completions zsh`.
            _prospects() {
                local -a commands
                commands=(
            \(described)
                )
                local -i i=2
                while (( i < CURRENT )) && [[ $words[i] == -* ]]; do
                    [[ $words[i] == --store ]] && (( i++ ))
                    (( i++ ))
                done
                if (( i >= CURRENT )); then
                    if [[ $words[CURRENT-1] == --store ]]; then
                        _files
                    elif [[ $PREFIX == -* ]]; then
                        compadd -- \(globalOptions.joined(separator: " "))
                    else
                        _describe -t commands 'prospects command' commands
                    fi
                    return
                fi
                case $words[i] in
            \(cases)
                esac
            }
            if [[ $funcstack[1] == _prospects ]]; then
                _prospects "$@"
            else
                compdef _prospects prospects
            fi
            """
    }

    // MARK: fish

    private static func fish() -> String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        func option(_ name: String) -> String {
            name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())"
        }
        var lines = [
            "# fish completion for prospects(1), made by `prospects completions fish`.",
            "complete -c prospects -n __fish_use_subcommand -l help -s h -d 'show help'",
            "complete -c prospects -n __fish_use_subcommand -l version -d 'show the version'",
            "complete -c prospects -n __fish_use_subcommand -l store -r -F -d 'SQLite file path or postgres:// URL'",
        ]
        for command in commands {
            lines.append(
                "complete -c prospects -n __fish_use_subcommand -f -a \(command.name) -d \(quoted(command.abstract))")
            let condition = quoted("__fish_seen_subcommand_from \(command.name)")
            for name in command.options where name != "-h" {
                var line = "complete -c prospects -n \(condition) \(option(name))"
                if name == "--help" { line += " -s h" }
                if let words = command.values[name] {
                    line += " -x -a \(quoted(words.joined(separator: " ")))"
                } else if command.takingValues.contains(name) {
                    line += " -r -F"
                }
                lines.append(line)
            }
            if !command.arguments.isEmpty {
                lines.append(
                    "complete -c prospects -n \(condition) -f -a \(quoted(command.arguments.joined(separator: " ")))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
