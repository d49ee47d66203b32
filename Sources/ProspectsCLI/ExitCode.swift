import ProspectsCore

/// The process exit statuses, sysexits-style, so scripts and systemd can tell failures apart.
public enum ExitCode: Int32, Sendable, CaseIterable {
    case success = 0
    /// The command line was wrong.
    case usage = 64
    /// Some input was rejected: an unreadable image, no QR code found, or a code that is not a valid contact.
    case dataError = 65
    /// An input path does not exist or cannot be read.
    case noInput = 66
    /// The prospect store cannot be opened or reached.
    case unavailable = 69
    /// A bug: something that should not happen did.
    case software = 70
    /// An output file could not be created.
    case cannotCreate = 73
    /// Reading or writing failed.
    case ioError = 74
    /// The store stayed busy; trying again later may work.
    case tryAgain = 75
    /// The store refuses this user (a missing privilege, a read-only file); trying again will not help.
    case noPermission = 77
    /// The configuration cannot work (e.g. `watch` with an archive on another file system); restarting won't help.
    case config = 78
    /// Stopped by Ctrl-C or SIGTERM (128 + SIGINT, as shells report it), with what was committed kept.
    case interrupted = 130

    /// The line the README and `--help` show for this status.
    public var summary: String {
        switch self {
        case .success: "success"
        case .usage: "usage error: unknown command or option, missing argument"
        case .dataError: "some input was rejected (unreadable image, no QR code found, invalid contact)"
        case .noInput: "an input path does not exist or cannot be read"
        case .unavailable: "the prospect store cannot be opened or reached, or is not one it can use"
        case .software: "internal error"
        case .cannotCreate: "an output file cannot be created"
        case .ioError: "an I/O error while reading or writing"
        case .tryAgain: "the store stayed busy; try again"
        case .noPermission: "the store refuses this user (a missing database privilege, a read-only file)"
        case .config:
            "the configuration cannot work (watch: unusable inbox, archive or quarantine; serve: not loopback)"
        case .interrupted: "interrupted (import, ingest: what was committed before the signal stays, and is said)"
        }
    }
}

extension ExitCode {
    /// The status of a run over files after one more: a file that is there but cannot be read makes it 66, as a
    /// missing one does; otherwise the first rejected file makes a successful run 65.
    func after(file error: ScanError?, rejected: Bool) -> ExitCode {
        if case .unreadableFile? = error { return .noInput }
        return rejected && self == .success ? .dataError : self
    }
}
