import ProspectsCore
import QRDecoding

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

    let prospect: Prospect
    let format: CardPayload.Format
    let moduleSize: Int
    let output: String

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        guard let name = arguments.value("--name"), let email = arguments.value("--email") else {
            throw UsageError("encode needs --name and --email")
        }
        guard let output = arguments.value("-o") ?? arguments.value("--output"), !output.isEmpty else {
            throw UsageError("encode needs -o <file.png>")
        }
        // A phone or organisation asked for is never dropped: the two-line format has no room for either.
        let hasDetails = arguments.value("--phone") != nil || arguments.value("--organization") != nil
        format = try arguments.choice("--format", default: hasDetails ? .mecard : .lines)
        if hasDetails && format == .lines {
            throw UsageError(
                "--phone and --organization need --format mecard or vcard; lines carries a name and an address only")
        }
        moduleSize = try arguments.integer("--module-size", in: 1...64) ?? 8
        let parser = PayloadParser()
        let card: Prospect
        switch parser.prospect(
            name: name, email: email, phone: arguments.value("--phone"), organization: arguments.value("--organization")
        )
        {
        case .success(let built): card = built
        case .failure(let error): throw UsageError(error.message)
        }
        // What the card says must read back as this very contact: a name starting `MECARD:` or `tel:` cannot be
        // the first of two lines, because a reader takes it for that kind of code.
        switch parser.parse(CardPayload.make(card, format: format)) {
        case .success(let read) where read.name == card.name && read.email == card.email:
            break
        case .success, .failure:
            throw UsageError("this name cannot be written in the \(format.rawValue) format; try --format vcard")
        }
        prospect = card
        self.output = output
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let payload = CardPayload.make(prospect, format: format)
        let png: [UInt8]
        do {
            png = try PNGWriter.encode(QRCodeImage.make(text: payload, moduleSize: moduleSize))
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
            "wrote \(format.rawValue) card for \(HumanText.prospect(prospect)) to \(SafeText.escaped(output))")
        return .success
    }
}
