import SystemCalls

/// Why `watch` cannot start or go on. Per-file failures are not errors: they are quarantined outcomes.
public enum WatchError: Error, Sendable, Hashable {
    /// The inbox does not exist (it may be a mount that is not there yet: worth a restart).
    case inboxMissing(path: String)
    /// The inbox, archive or quarantine folder cannot be used as configured; restarting will not help.
    case badConfiguration(String)
    /// The inbox folder was deleted or moved away while being watched.
    case inboxGone(path: String)
    /// A system call the watcher cannot do without failed (inotify, creating its claim folder, moving a file).
    case system(SystemCallError)
    /// The decoder worker process could not be started.
    case decoderUnavailable(String)

    public var message: String {
        switch self {
        case .inboxMissing(let path): "the inbox \(path) does not exist"
        case .badConfiguration(let why): "cannot watch: \(why)"
        case .inboxGone(let path): "the inbox \(path) was deleted or moved away"
        case .system(let error): "a system call failed: \(error.message)"
        case .decoderUnavailable(let why): "cannot start the decoder process: \(why)"
        }
    }

    /// True when running again unchanged cannot succeed (systemd's `RestartPreventExitStatus`).
    public var isPermanent: Bool {
        if case .badConfiguration = self { return true }
        return false
    }
}

extension WatchError: CustomStringConvertible {
    public var description: String { message }
}
