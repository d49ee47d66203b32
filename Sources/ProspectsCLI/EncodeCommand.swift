import ProspectsCore
import ProspectsExchange
import ProspectsService

/// `prospects encode`: one's own contact card as a QR code PNG (the app's "Me" tab).
struct EncodeCommand: Subcommand {
    static let name = "encode"
    static let abstract = "Write your own contact card as a QR code PNG."
    static let help = """
        USAGE: prospects encode --name <name> --email <email> [--phone <phone>] [--organization <org>]
                                [--format lines|mecard|vcard] [--module-size <px>] -o <file.png>

        OPTIONS:
          --name <name>           your name
          --email <email>         your email address (validated as 'ingest' would)
          --phone, --organization optional; carried by the mecard and vcard formats only
          --format <format>       lines (Name, newline, email: the default), mecard (the default with --phone or
                                  --organization) or vcard
          --module-size <px>      pixels per QR module, 1 to 64 (default 8)
          -o, --output <file>     the PNG to write (mode 0600, replaced atomically; a link is followed, a device
                                  or FIFO written through); - for stdout
          -h, --help              show this help
        """
    static let flags: Set<String> = []
    static let options: Set<String> = [
        "--name", "--email", "--phone", "--organization", "--format", "--module-size", "-o", "--output",
    ]

    static let optionValues = ["--format": CardPayload.Format.allCases.map(\.rawValue)]

    let card: ContactCard
    let moduleSize: Int
    let output: String

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        guard let name = arguments.value("--name"), let email = arguments.value("--email") else {
            throw UsageError("encode needs --name and --email")
        }
        guard let output = arguments.value("-o") ?? arguments.value("--output"), !output.isEmpty else {
            throw UsageError("encode needs -o <file.png>")
        }
        let phone = arguments.value("--phone")
        let organization = arguments.value("--organization")
        let asked: CardPayload.Format? = try arguments.choice("--format")
        let format = try Self.usage { () throws(CardError) in
            try ContactCard.format(asked, phone: phone, organization: organization)
        }
        moduleSize = try arguments.integer("--module-size", in: 1...64) ?? 8
        card = try Self.usage { () throws(CardError) in
            try ContactCard(name: name, email: email, phone: phone, organization: organization, format: format)
        }
        self.output = output
    }

    /// A card that cannot be made is a command line to correct.
    private static func usage<T>(_ body: () throws(CardError) -> T) throws(UsageError) -> T {
        do throws(CardError) {
            return try body()
        } catch {
            switch error {
            case .detailsNeedRicherFormat:
                throw UsageError(
                    "--phone and --organization need --format mecard or vcard; lines carries a name and an address only"
                )
            case .invalid(let error): throw UsageError(error.message)
            case .unreadableInFormat(let format):
                throw UsageError("this name cannot be written in the \(format.rawValue) format; try --format vcard")
            }
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let png: [UInt8]
        do {
            png = try card.png(moduleSize: moduleSize)
        } catch {
            context.console.warn("cannot make the QR code: \(error)")
            return .dataError
        }
        guard output != "-" else {
            context.console.out.bytes(png)  // `-o -`: the PNG on stdout, for a pipe
            return .success
        }
        try OutputFile.write(png, to: output)
        context.console.warn(
            "wrote \(card.format.rawValue) card for \(HumanText.prospect(card.prospect)) to \(SafeText.escaped(output))"
        )
        return .success
    }
}
