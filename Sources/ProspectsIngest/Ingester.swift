import ProspectStore
import ProspectsCore
import SystemCalls

/// The `ingest` job: expand paths, decode on every core, load into the store, report each file.
///
/// `watch` uses the same `FileProcessor` and `Loader`; only the event source and the file moves differ.
public final class Ingester {
    public enum Event: Sendable {
        /// A path given on the command line that could not be read at all.
        case missing(path: String, error: ScanError)
        /// A folder given on the command line that holds no image (see `InputWalker.Entry.noImages`).
        case noImages(folder: String)
        /// A file inside a folder that is no picture (see `InputWalker.Entry.skipped`).
        case skipped(path: String, kind: String)
        /// The walk is done: this many files will be reported (for a progress line).
        case planned(files: Int)
        /// Another file is decoded; its outcome is reported once its batch commits.
        case decoded(count: Int)
        /// A file whose outcome is committed.
        case file(FileResult)
    }

    private let store: any ProspectStore
    private let processor: ParallelProcessor
    private let batchSize: Int
    private let context: CollectionContext
    private var stopSignals: SignalPipe?
    /// The totals of the files committed so far. After `Interrupted` every file reported is in the store, and no
    /// other: running the same ingest again loads the rest, and counts those as duplicates (the ledger knows them).
    public private(set) var committed = LoadTotals()

    public init(
        store: any ProspectStore, workers: Int? = nil, options: FileProcessor.Options = .init(), batchSize: Int = 512,
        context: CollectionContext = .init()
    ) {
        self.store = store
        self.context = context
        self.processor = ParallelProcessor(workers: workers, options: options)
        self.batchSize = batchSize
    }

    /// From now on, SIGINT or SIGTERM make `ingest` commit the files decoded so far, report them, and throw
    /// `Interrupted`, when the next file is decoded. A second signal ends the process at once.
    public func stopOnInterrupt() throws(SystemCallError) {
        stopSignals = try SignalPipe(once: true)
    }

    /// Ingests every image under `paths`; a bad file is reported and the run goes on. Throws only for the store.
    public func ingest(_ paths: [String], report: (Event) throws -> Void) throws -> LoadTotals {
        let loader = Loader(store: store, batchSize: batchSize, context: context)
        let jobs = try InputWalker.jobs(
            for: paths, missing: { path, error in try report(.missing(path: path, error: error)) },
            noImages: { folder in try report(.noImages(folder: folder)) },
            skipped: { path, kind in try report(.skipped(path: path, kind: kind)) })
        try report(.planned(files: jobs.count))
        var decoded = 0
        try processor.run(jobs) { outcome in
            if let stopSignals, stopSignals.drain() > 0 {
                try loader.flush { try report(.file($0)) }
                committed = loader.totals
                throw Interrupted()
            }
            decoded += 1
            try report(.decoded(count: decoded))
            try loader.add(outcome) { try report(.file($0)) }
        }
        try loader.flush { try report(.file($0)) }
        committed = loader.totals
        return loader.totals
    }
}
