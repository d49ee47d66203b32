import Foundation
import ProspectStore
import ProspectsCore
import ProspectsIngest

/// `watch` as the application layer runs it: an inbox watched until a stop signal, each picture decoded by a worker
/// process (this program, started again in its worker mode), committed to the service's store and moved. The
/// front-end hears each file once and says what it became; the lifecycle, the store and the workers live here.
public final class DropFolderWatch {
    /// What a person chooses about a watch.
    public struct Settings: Sendable {
        public var inbox: String
        /// Default: `INBOX/archive`.
        public var archive: String?
        /// Default: `INBOX/rejected`.
        public var rejected: String?
        /// Scan this often instead of using inotify (NFS and mounts that send no events).
        public var pollInterval: Duration?
        /// Decoder processes side by side.
        public var workers: Int
        public var pixelLimit: Int
        /// Whether subfolders of the inbox are watched too.
        public var recursive = true
        /// The event and collector every file's sightings record.
        public var context = CollectionContext()

        public init(inbox: String, workers: Int, pixelLimit: Int) {
            self.inbox = inbox
            self.workers = workers
            self.pixelLimit = pixelLimit
        }
    }

    /// How long a commit waits for another process's lock before the watch waits the busy store out itself: short,
    /// so that a stop signal or an inbox that went away is never held up by it.
    static let lockWait: Duration = .seconds(1)

    private let watcher: WatchService

    /// Checks the folders, opens the service's store (made when missing), starts watching and starts the decoder
    /// workers. Throws `WatchError` for a setup that cannot work (before any store is made), or the store's error.
    /// `environment` tells whether systemd waits for READY; `log` hears the watch's own messages.
    public init(
        _ settings: Settings, service: ProspectsService, environment: [String: String],
        log: @escaping (String) -> Void
    ) throws {
        var options = WatchService.Options(
            inbox: settings.inbox, archive: settings.archive, rejected: settings.rejected,
            pollInterval: settings.pollInterval, workers: settings.workers, pixelLimit: settings.pixelLimit,
            decoderExecutable: "/proc/self/exe", decoderArguments: Self.workerArguments(pixelLimit: settings.pixelLimit)
        )
        options.recursive = settings.recursive
        options.context = settings.context
        watcher = try WatchService(
            options: options, openStore: { try service.openStore(create: true, lockWait: Self.lockWait) },
            notifier: SystemdNotifier(environment: environment), log: log)
    }

    /// The command line a decoder worker is started with: `prospects watch --decoder-worker`, which the front-end
    /// hands to `serveDecoderRequests`.
    public static func workerArguments(pixelLimit: Int) -> [String] {
        ["prospects", "watch", "--decoder-worker", "--pixel-limit", String(pixelLimit)]
    }

    /// A decoder worker's whole life: requests on stdin, replies on stdout, until stdin ends; the exit status.
    public static func serveDecoderRequests(pixelLimit: Int) -> Int32 {
        DecoderWorkerLoop.run(pixelLimit: pixelLimit)
    }

    /// Runs until SIGINT or SIGTERM (or `stop`), reporting each file once; throws for what stops it otherwise.
    public func run(report: (WatchedFile) throws -> Void) throws {
        try watcher.run(report: report)
    }

    /// Asks the watch to stop as a stop signal would: the files in hand are finished first.
    public func stop() {
        watcher.stop()
    }

    /// The files committed so far, by outcome.
    public var totals: LoadTotals { watcher.totals }
}
