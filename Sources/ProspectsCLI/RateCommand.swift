import Foundation
import ProspectsCore
import ProspectsService

/// `prospects rate`: how promising a lead is.
struct RateCommand: Subcommand {
    static let name = "rate"
    static let abstract = "Rate a prospect hot, warm or cold (none clears the rating)."
    static let help = """
        USAGE: prospects rate [--store <location>] <email-or-id> hot|warm|cold|none

        OPTIONS:
        \(storeOptionHelp)
          -h, --help              show this help

        Exit status: 0 when rated, 65 when there is no such prospect.
        """
    static let flags: Set<String> = []
    static let options: Set<String> = ["--store"]

    let arguments: CommandLineArguments
    let rating: ProspectRating

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        let allowed = ProspectRating.allCases.map(\.rawValue).joined(separator: ", ")
        guard arguments.positionals.count == 2 else {
            throw UsageError("rate needs an email address or id and a rating (\(allowed))")
        }
        guard let rating = ProspectRating(rawValue: arguments.positionals[1].lowercased()) else {
            throw UsageError(
                "the rating must be one of: \(allowed) (got '\(SafeText.escaped(arguments.positionals[1], limit: 80))')"
            )
        }
        self.rating = rating
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        try changingLead(arguments.positionals[0], arguments, context) { service, reference throws(LeadChangeError) in
            try service.setRating(reference, rating)
            return rating == .none ? "rating cleared" : "rated \(rating.rawValue)"
        }
    }
}
