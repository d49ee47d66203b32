import Foundation

/// The `prospects` command: parses argv, runs one subcommand, exits with a sysexits-style status.
public enum ProspectsCommand {
    public static func main() -> Never {
        exit(0)
    }
}
