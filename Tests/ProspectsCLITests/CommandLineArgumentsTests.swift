import Testing

@testable import ProspectsCLI

/// How one subcommand's arguments are split into flags, option values and positionals, and how they are refused.
@Suite struct CommandLineArgumentsTests {
    func parse(_ arguments: [String]) throws(UsageError) -> CommandLineArguments {
        try CommandLineArguments(arguments, flags: ["--json", "--reverse"], options: ["--store", "--sort", "-o"])
    }

    func refusal(_ arguments: [String]) -> String? {
        do throws(UsageError) {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func optionsTakeTheirValueInEitherSpelling() throws {
        let parsed = try parse(["--store", "a.sqlite", "--sort=recent", "-o", "out.csv", "--json", "file"])
        #expect(parsed.value("--store") == "a.sqlite")
        #expect(parsed.value("--sort") == "recent")
        #expect(parsed.value("-o") == "out.csv")
        #expect(parsed.has("--json") && !parsed.has("--reverse"))
        #expect(parsed.positionals == ["file"])
    }

    @Test func theLastValueGivenWins() throws {
        #expect(try parse(["--store", "a", "--store=b"]).value("--store") == "b")
    }

    @Test func aDoubleDashEndsOptionsAndADashIsAnArgument() throws {
        let parsed = try parse(["-", "--", "--json", "-o"])
        #expect(parsed.positionals == ["-", "--json", "-o"])
        #expect(!parsed.has("--json"))
    }

    @Test func mistakesAreNamed() {
        #expect(refusal(["--jsn"]) == "unknown option '--jsn'")
        #expect(refusal(["--json=yes"]) == "option '--json' takes no value")
        #expect(refusal(["--store"]) == "option '--store' needs a value")
        #expect(refusal(["--\u{1B}[31m"]) == "unknown option '--\\u{1B}[31m'")
    }

    @Test func choicesAndNumbersSayWhatWasExpected() throws {
        let parsed = try CommandLineArguments(
            ["--sort", "size", "--jobs", "0", "--filter", "contacted"], flags: [],
            options: ["--sort", "--jobs", "--filter"])
        #expect(throws: UsageError("'--sort' must be one of: name, recent (got 'size')")) {
            let _: ProspectSortChoice = try parsed.choice("--sort", default: .name)
        }
        #expect(throws: UsageError("invalid value '0' for '--jobs': expected a whole number from 1 to 256")) {
            try parsed.jobs()
        }
        let filter: ProspectSortChoice? = try CommandLineArguments([], flags: [], options: ["--sort"]).choice("--sort")
        #expect(filter == nil)
    }
}

/// A stand-in with the shape of `ProspectSort`, so the parser's choice is tested without the store module.
enum ProspectSortChoice: String, CaseIterable {
    case name, recent
}
