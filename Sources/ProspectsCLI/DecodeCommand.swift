import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import ProspectsService
import QRDecoding

/// `prospects decode`: read QR codes from pictures and show what they hold. No store needed.
struct DecodeCommand: Subcommand {
    static let name = "decode"
    static let abstract = "Read the QR codes in pictures and show the contacts they hold."
    static let help = """
        USAGE: prospects decode [--json | --raw] [--stats] [--pixel-limit <n>] [--jobs <n>] <path> ...

        ARGUMENTS:
          <path>                  pictures (PNG, JPEG, HEIC, AVIF, WebP: told by their bytes, whatever the
                                  name), or folders searched recursively for them (a link inside is reported,
                                  not followed; hidden names skipped; files that are no picture are skipped and
                                  named); - reads one picture from stdin

        OPTIONS:
          --json                  one JSON object per line: per code {"file","text","prospect"|"error",
                                  "encoding","quality","pass","corners"} ("pass": the decoder pass that
                                  found it, "original" for a clean image),
                                  per failed file {"file","error"}
          --raw                   the text of every code, each followed by a newline, nothing else
                                  (exact bytes into a pipe or file; control characters escaped on a terminal)
          --stats                 at the end, on stderr: images by number of decoder passes run (1 for a
                                  clean image; more when recovery passes were needed) and decode time per
                                  image (mean, median, max)
          --pixel-limit <n>       refuse images with more pixels than this (default \(PNGReader.defaultPixelLimit))
          --jobs <n>              decode on n threads (default: one per core); output keeps the input order
          -h, --help              show this help

        Exit status: 0 when every file held a valid contact (with --raw: at least one code), 65 when a file
        was rejected (unreadable, no QR code found, not a contact), 66 when a path does not exist.
        """
    static let flags: Set<String> = ["--json", "--raw", "--stats"]
    static let options: Set<String> = ["--pixel-limit", "--jobs"]

    enum Format { case human, json, raw }

    let format: Format
    let paths: [String]
    let pixelLimit: Int
    let showStatistics: Bool
    /// Worker threads; nil means one per core.
    let workers: Int?

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        if arguments.has("--json") && arguments.has("--raw") { throw UsageError("--json and --raw exclude each other") }
        format = arguments.has("--json") ? .json : arguments.has("--raw") ? .raw : .human
        showStatistics = arguments.has("--stats")
        paths = arguments.positionals
        guard !paths.isEmpty else { throw UsageError("decode needs at least one file or folder") }
        pixelLimit = try arguments.pixelLimit()
        workers = try arguments.jobs()
    }

    /// What is said of a folder that holds no image.
    static func noImages(in folder: String) -> String {
        "no pictures in \(SafeText.escaped(folder)) (names starting with '.' are skipped)"
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let console = context.console
        var status = ExitCode.success
        var skipped = SkippedFiles()
        var statistics = DecodeStatistics()
        defer {
            if showStatistics {
                console.out.flush()
                for line in statistics.summary { console.err.line(line) }
            }
        }
        defer {
            if let line = skipped.summary { console.warn(line) }
        }
        ProspectsService.decode(
            paths, workers: workers, pixelLimit: pixelLimit,
            missing: { path, error in
                status = .noInput
                if format == .json {
                    console.out.line(
                        JSONRecords.fileError(path: StoreLocation.hidingPasswords(in: path), error).rendered)
                } else {
                    console.warn("\(SafeText.escaped(path)): \(error.message)")
                }
            },
            noImages: { folder in console.warn(Self.noImages(in: folder)) },
            skipped: { path, kind in skipped.add(path: path, kind: kind) }
        ) { outcome in
            statistics.add(outcome)
            // A picture of two badges, one of them no contact, is rejected input too (exit 65), though it is loaded.
            let accepted =
                format == .raw ? outcome.fileError == nil : outcome.rejectedCodes.isEmpty && outcome.rejection == nil
            status = status.after(file: outcome.fileError, rejected: !accepted)
            switch format {
            case .raw: printRaw(outcome, console)
            case .json: printJSON(outcome, console)
            case .human: printHuman(outcome, console)
            }
        }
        return status
    }

    private func printRaw(_ outcome: FileOutcome, _ console: Console) {
        HumanText.warn(outcome.warnings, file: outcome.path, console)
        if let error = outcome.fileError {
            console.warn("\(SafeText.escaped(outcome.path)): \(HumanText.problem(error))")
            return
        }
        for code in outcome.codes {
            if console.out.isTerminal {
                // A person is reading: the text line by line, but ESC sequences and bidi tricks escaped.
                let lines = code.symbol.text.split(separator: "\n", omittingEmptySubsequences: false)
                console.out.line(lines.map { SafeText.escaped(String($0)) }.joined(separator: "\n"))
            } else {
                // zbarimg --raw style into a pipe or file: exactly the code's text; the user asked for raw bytes.
                console.out.bytes(Array(code.symbol.text.utf8) + [UInt8(ascii: "\n")])
            }
        }
    }

    private func printJSON(_ outcome: FileOutcome, _ console: Console) {
        HumanText.warn(outcome.warnings, file: outcome.path, console)
        if let error = outcome.fileError {
            console.out.line(JSONRecords.fileError(path: outcome.path, error).rendered)
            return
        }
        for code in outcome.codes {
            console.out.line(JSONRecords.code(code, file: outcome.path).rendered)
        }
    }

    private func printHuman(_ outcome: FileOutcome, _ console: Console) {
        let file = SafeText.escaped(outcome.path)
        HumanText.warn(outcome.warnings, file: outcome.path, console)
        if let error = outcome.fileError {
            console.warn("\(file): \(HumanText.problem(error))")
            return
        }
        for (index, code) in outcome.codes.enumerated() {
            let which = HumanText.whichCode(index, of: outcome.codes.count)
            switch code.result {
            case .success(let prospect): console.out.line("\(file)\(which): \(HumanText.prospect(prospect))")
            case .failure(let error): console.warn("\(file)\(which): \(error.message)")
            }
        }
    }
}
