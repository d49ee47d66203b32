import Foundation
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import ProspectsService
import QRDecoding
import SystemCalls

/// `prospects watch`: a drop-folder daemon that ingests every complete picture put into a folder, exactly once.
struct WatchCommand: Subcommand {
    static let name = "watch"
    static let abstract = "Watch a drop folder and ingest every picture put into it, exactly once."
    static let help = """
        USAGE: prospects watch [--store <location>] [--event <event>] [--by <name>] [--json] [--archive <dir>]
                               [--rejected <dir>] [--poll <seconds>] [--workers <n>] [--pixel-limit <n>]
                               [--no-recursive] <inbox>

        ARGUMENTS:
          <inbox>                 the folder to watch, with its subfolders

        OPTIONS:
        \(storeOptionHelp)
        \(collectionOptionHelp)
          --json                  one JSON line per file on stdout, flushed at once:
                                  {"file","outcome":"inserted"|"duplicate"|"rejected","prospects":[…],"error",
                                  "rejectedCodes":[…],"movedTo"} (rejectedCodes: the codes that are no contact);
                                  "failed" (with "stuckAt") for a file it may not take or move
          --archive <dir>         where committed files go (default <inbox>/archive)
          --rejected <dir>        where refused files go, each with <name>.reason.json (default <inbox>/rejected)
          --poll <seconds>        scan every <seconds> instead of using inotify (NFS and mounts that send no events)
          --workers <n>           decoder processes side by side (default: the number of cores)
          --pixel-limit <n>       refuse images with more pixels than this (default \(PNGReader.defaultPixelLimit))
          --no-recursive          watch the inbox itself only, not its subfolders
          -h, --help              show this help

        Files already waiting are taken first; then each file is taken once it is complete (closed after writing,
        or renamed in), in the inbox and in its subfolders (new ones as they appear; hidden ones, the archive and the
        quarantine aside). Hidden names and temporary ones (*.part, *.tmp, *~) are ignored. A file is claimed by an
        atomic rename into <inbox>/.processing/ (so two watchers never take the same file), decoded in a separate
        process (a crash costs one file, quarantined as decoderCrashed), committed with its content hash, then
        moved. Nothing is deleted or overwritten. After kill -9, a restart takes up the claimed files again and
        the content ledger keeps them from being counted twice. SIGINT/SIGTERM: finish the files in hand, exit 0.
        With --json, a line that cannot be written to stdout (reader gone, disk full) stops it the same way, exit 74.
        Under systemd (Type=notify) it reports READY, STOPPING, STATUS and watchdog pings on $NOTIFY_SOCKET.
        A store that cannot be reached or stays busy once running (a server restart) is waited out: the commit is
        tried again after 1 s, then 2, 4… up to 30 s, while new files wait in the inbox.
        Exit status: 0 after a stop signal, 66 when the inbox is missing or goes away, 69 when the store is
        unavailable at start, 74 when a system call it cannot do without fails, 75 when the store is locked at
        start, 77 when the store refuses this user, 78 when the folders cannot work as configured. A file it may
        not take or move (a name, an owner, a mode of its own) is reported as "failed" and left where it is; the
        others go on.
        """
    static let flags: Set<String> = ["--json", "--decoder-worker", "--no-recursive"]
    static let options: Set<String> = [
        "--store", "--archive", "--rejected", "--poll", "--workers", "--pixel-limit", "--event", "--by",
    ]

    let arguments: CommandLineArguments
    let json: Bool
    /// The hidden mode the watcher starts its decoder processes in; not for people.
    let decoderWorker: Bool
    let inbox: String
    let pollInterval: Duration?
    let workers: Int
    let pixelLimit: Int

    init(_ arguments: CommandLineArguments) throws(UsageError) {
        self.arguments = arguments
        json = arguments.has("--json")
        decoderWorker = arguments.has("--decoder-worker")
        pixelLimit = try arguments.pixelLimit()
        workers = try arguments.integer("--workers", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        pollInterval = try arguments.value("--poll", expected: "seconds, above 0 and at most 86400") { text in
            Double(text).flatMap { $0 > 0 && $0 <= 86_400 ? Duration.milliseconds(Int64($0 * 1000)) : nil }
        }
        if decoderWorker {
            inbox = ""
            return
        }
        guard arguments.positionals.count == 1 else { throw UsageError("watch needs exactly one inbox folder") }
        inbox = arguments.positionals[0]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        if decoderWorker {
            let status = DropFolderWatch.serveDecoderRequests(pixelLimit: pixelLimit)
            return ExitCode(rawValue: status) ?? .software
        }
        let console = context.console
        console.out.lineFlushed = true
        var settings = DropFolderWatch.Settings(inbox: inbox, workers: workers, pixelLimit: pixelLimit)
        settings.archive = arguments.value("--archive")
        settings.rejected = arguments.value("--rejected")
        settings.pollInterval = pollInterval
        settings.recursive = !arguments.has("--no-recursive")
        settings.context = try context.collectionContext(arguments)
        do {
            let service = try DropFolderWatch(
                settings, service: context.service(arguments), environment: context.environment,
                log: { console.warn($0) })
            let how = pollInterval.map { "scanning every \($0)" } ?? "inotify"
            console.warn(
                "watching \(SafeText.escaped(inbox)) (\(how), \(HumanText.count(workers, "decoder process", plural: "decoder processes")))"
            )
            var stuck: Set<String> = []
            var outputFailed = false
            // With --json, stdout is the consumer's feed: once a line cannot be written (its reader gone, a full
            // disk), every later line would be lost too. Stop as on SIGTERM and fail: files not yet taken stay in
            // the inbox, and those still claimed are taken up by the next start.
            let checkOutput = {
                guard json, !outputFailed, let error = console.out.writeError else { return }
                outputFailed = true
                console.warn(
                    "cannot write the --json lines to standard output (\(String(cString: strerror(error)))); stopping")
                service.stop()
            }
            try service.run { file in
                if file.stuck != nil {
                    stuck.insert(file.inboxPath)
                    reportStuck(file, console)
                } else {
                    // Stuck before, taken since (its owner or mode fixed): no longer a file that could not be taken.
                    stuck.remove(file.inboxPath)
                    report(file, console)
                }
                checkOutput()
            }
            let totals = service.totals
            // Files, not reports: one file can be reported more than once (it changed, and still cannot be taken);
            // and only those still not taken at the stop.
            let notTaken =
                stuck.isEmpty ? "" : ", \(HumanText.count(stuck.count, "file")) could not be claimed or moved"
            console.warn(
                "stopped: \(HumanText.count(totals.files, "file")), \(totals.inserted) inserted, "
                    + "\(HumanText.count(totals.duplicates, "duplicate")), \(totals.rejected) rejected\(notTaken)")
            if outputFailed { return .ioError }
        } catch let error as WatchError {
            throw CommandFailure(message: error.message, status: status(for: error))
        }
        return .success
    }

    private func status(for error: WatchError) -> ExitCode {
        switch error {
        case .badConfiguration: .config
        case .inboxMissing, .inboxGone: .noInput
        case .system: .ioError
        case .decoderUnavailable: .software
        }
    }

    private func report(_ file: WatchedFile, _ console: Console) {
        guard let result = file.result else { return }
        let prospects = result.file.prospects
        let moved = displayPath(file.path)
        let name = SafeText.escaped(file.name)
        switch result.outcome {
        case .inserted, .duplicate:
            let who = prospects.map(HumanText.prospect).joined(separator: ", ")
            let note =
                !result.alreadyLoaded
                ? ""
                : result.inserted > 0
                    ? " (loaded before, and deleted since: added again)"
                    : " (this content was loaded before)"
            console.warn("\(name): \(result.outcome.rawValue) \(who)\(note) → \(moved)")
            // The picture is archived for its good codes; its bad ones must not go unsaid.
            for (index, error) in result.file.rejectedCodes {
                console.warn(
                    "\(name)\(HumanText.whichCode(index, of: result.file.codes.count)): rejected: \(error.message)")
            }
        case .rejected:
            let error = result.file.rejection ?? .noCodeFound
            console.warn("\(name): rejected: \(HumanText.problem(error)) → \(moved)")
        }
        if json {
            var line = JSONLine()
            line.add("file", result.file.path)
            line.add("outcome", result.outcome.rawValue)
            line.add("prospects", array: prospects.map(JSONRecords.prospect))
            if result.outcome == .rejected {
                line.add("error", object: JSONRecords.error(result.file.rejection ?? .noCodeFound))
            } else {
                line.addRaw("error", "null")
            }
            line.add("rejectedCodes", array: result.file.rejectedCodes.map { JSONRecords.error($0.error) })
            line.add("movedTo", file.path)
            console.out.line(line.rendered)
        }
    }

    /// A file that could not be claimed or moved: one warning naming it and the system's reason, and with `--json`
    /// a line of the usual shape with the outcome `failed`, no `movedTo`, and `stuckAt`, where the file is now.
    private func reportStuck(_ file: WatchedFile, _ console: Console) {
        guard let (stage, error) = file.stuck else { return }
        let name = SafeText.escaped(file.name)
        let why = "\(error.reason) (\(error.call))"
        switch stage {
        case .claim:
            console.warn("\(name): cannot take it: \(why); it stays in the inbox until it changes")
        case .name:
            console.warn("\(name): cannot take it: its name is not valid UTF-8; it stays in the inbox until renamed")
        case .move:
            let committed = file.result.map { " (\($0.outcome.rawValue), committed)" } ?? ""
            console.warn(
                "\(name)\(committed): cannot move it: \(why); it stays at \(displayPath(file.path)) until the next "
                    + "start")
        }
        if json {
            var line = JSONLine()
            line.add("file", file.inboxPath)
            line.add("outcome", "failed")
            line.add("prospects", array: (file.result?.file.prospects ?? []).map(JSONRecords.prospect))
            var reason = JSONLine()
            reason.add("kind", "fileSystemError")
            reason.add("message", error.message)
            line.add("error", object: reason)
            line.addRaw("movedTo", "null")
            line.add("stuckAt", file.path)
            console.out.line(line.rendered)
        }
    }

    /// `archive/x.png` rather than the full path when the destination is inside the inbox.
    private func displayPath(_ path: String) -> String {
        let prefix = inbox.hasSuffix("/") ? inbox : inbox + "/"
        return SafeText.escaped(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
    }
}
