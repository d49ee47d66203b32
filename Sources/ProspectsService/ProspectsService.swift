import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import ProspectsIngest
import QRDecoding

/// The application layer every front-end calls (the `prospects` command, the web server): each thing the product
/// does, once, as values in and values or typed errors out. It prints nothing, reads no arguments and never exits.
///
/// A class because it owns the store it opens on first use; like a store, it belongs to one thread at a time.
public final class ProspectsService {
    /// Where the prospects live, or why the location given is none.
    private let location: Result<StoreLocation, StoreError>
    /// How long a statement waits for another process's lock on the store before failing with `.busy`.
    public let lockWait: Duration
    private var opened: (any ProspectStore)?
    /// Hears, once, that opening the store migrated it from an older schema (a front-end says so on stderr).
    public var migrated: ((SchemaMigration) -> Void)?

    public init(location: StoreLocation, lockWait: Duration = StoreLocation.defaultLockWait) {
        self.location = .success(location)
        self.lockWait = lockWait
    }

    /// The store named by `storeOption` (a front-end's `--store`), else `PROSPECTS_STORE` in `environment`, else
    /// `./prospects.sqlite`. A location that cannot be read is said when the store is first needed, so that a job
    /// that fails before it (a list that cannot be opened) says that first.
    public init(
        storeOption: String?, environment: [String: String], lockWait: Duration = StoreLocation.defaultLockWait
    ) {
        location = Result { () throws(StoreError) in
            try StoreLocation.resolve(option: storeOption, environment: environment)
        }
        self.lockWait = lockWait
    }

    /// The store, opened on first use and kept. Only the jobs that load prospects (ingest, import, watch) `create`
    /// a missing SQLite file: for the others a missing file is a mistyped path, and an empty new store would hide it.
    func store(create: Bool = false) throws(StoreError) -> any ProspectStore {
        if let opened { return opened }
        let store = try openStore(create: create)
        opened = store
        return store
    }

    /// Opens the store now (see `store`), so that a store that cannot be used stops a start, not the first page.
    public func open(create: Bool = false) throws(StoreError) {
        _ = try store(create: create)
    }

    /// A store of its own for the caller, opened now (the watcher opens one again after losing the connection).
    func openStore(create: Bool = false, lockWait: Duration? = nil) throws(StoreError) -> any ProspectStore {
        let store = try location.get().open(create: create, lockWait: lockWait ?? self.lockWait)
        if let migration = store.migration { migrated?(migration) }
        return store
    }

    // MARK: The list

    /// Hands the prospects `query` selects to `body`, one at a time and in order, until it returns false. From
    /// SQLite a list of millions holds one prospect at a time; the read lasts as long as `body` takes. The store
    /// filters, sorts and pages (`ProspectQuery`, in ProspectStore).
    public func forEach(_ query: ProspectQuery, _ body: (StoredProspect) -> Bool) throws(StoreError) {
        try store().forEach(query, body)
    }

    /// The prospects `query` selects, in order.
    public func list(_ query: ProspectQuery) throws(StoreError) -> [StoredProspect] {
        var prospects: [StoredProspect] = []
        try forEach(query) { prospect in
            prospects.append(prospect)
            return true
        }
        return prospects
    }

    /// How many prospects each tab holds, among those `search` selects (see `ProspectQuery.search`).
    public func counts(search: String? = nil) throws(StoreError) -> TabCounts {
        try counts(matching: ProspectQuery(search: search))
    }

    /// How many prospects each tab holds among those `query`'s search, rating, tag, event and collector select (its
    /// tab, sort and paging are ignored): counted by the store in one statement (`ProspectStore.tabCounts(_:)`), no
    /// row read here.
    public func counts(matching query: ProspectQuery) throws(StoreError) -> TabCounts {
        var all = query
        all.search = query.search.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        let counts = try store().tabCounts(all)
        return TabCounts(everyone: counts.everyone, contacted: counts.contacted)
    }

    /// Every prospect with a reminder, grouped as the reminders page shows them (see `ReminderGroups`).
    public func reminders(at now: Date) throws(StoreError) -> ReminderGroups {
        ReminderGroups(try store().due(at: ReminderTime.range.upperBound), now: now)
    }

    /// Everything known about one prospect, its scan history included; nil when no prospect matches.
    public func details(of reference: ProspectReference) throws(StoreError) -> ProspectDetails? {
        guard let stored = try store().prospect(reference) else { return nil }
        return try details(of: stored)
    }

    /// Marks one prospect contacted or not; false when no prospect matches.
    public func setContacted(_ reference: ProspectReference, _ contacted: Bool) throws(StoreError) -> Bool {
        try store().setContacted(reference, contacted)
    }

    /// Sets (or with nil clears) one prospect's reminder; false when no prospect matches.
    public func setReminder(_ reference: ProspectReference, at date: Date?) throws(StoreError) -> Bool {
        try store().setReminder(reference, at: date)
    }

    /// The prospects whose reminder is at or before `now`, earliest first.
    public func due(at now: Date) throws(StoreError) -> [StoredProspect] {
        try store().due(at: now)
    }

    /// Deletes the prospects named, each with its scan history, telling `report` of each reference by its index
    /// whether it was deleted (false: no such prospect). Every reference is looked up before anything is deleted:
    /// in `[#5, ada@example.org]`, where Ada is #5, both name her, and the second is not missing because the first
    /// deleted her. So the references not found are reported first, in order, then the ones deleted.
    public func delete(_ references: [ProspectReference], report: (_ index: Int, _ deleted: Bool) -> Void)
        throws(StoreError)
    {
        let store = try store()
        var found: [(index: Int, id: Int64)] = []
        for (index, reference) in references.enumerated() {
            if let prospect = try store.prospect(reference) {
                found.append((index, prospect.id))
            } else {
                report(index, false)
            }
        }
        var deleted: Set<Int64> = []
        for (index, id) in found {
            // false: another process deleted it in between; it is gone all the same, but not by this call.
            if !deleted.contains(id), try !store.delete(.id(id)) {
                report(index, false)
                continue
            }
            deleted.insert(id)
            report(index, true)
        }
    }

    // MARK: Loading and leaving

    /// An `Ingester` on the store (a missing SQLite file is made): decodes files and loads their codes. With
    /// `stopOnInterrupt`, SIGINT and SIGTERM stop it between batches (`Interrupted`, see `Ingester.committed`). Every
    /// scan records `context`'s event and collector.
    public func ingester(
        workers: Int?, options: FileProcessor.Options, stopOnInterrupt: Bool, context: CollectionContext = .init()
    ) throws -> Ingester {
        let ingester = Ingester(
            store: try store(create: true), workers: workers, options: options, context: context)
        if stopOnInterrupt { try ingester.stopOnInterrupt() }
        return ingester
    }

    /// Imports a list exactly once (see `ListImport`), telling `report` of each waiting, rejected row and cell left
    /// out, in file order.
    public func importList(_ request: ListImport.Request, report: (ListImport.Event) -> Void) throws(ListImport.Failure)
        -> ListImport.Summary
    {
        try ListImport(request).run(self, report: report)
    }

    /// The format of the list at `path` when none is given: a vCard file by its first bytes, else by its name
    /// (`ImportFormat(fileName:)`); nil when neither tells, or the file cannot be read (the import says why).
    public static func importFormat(ofFileAt path: String) -> ImportFormat? {
        // Only a regular file is looked into: bytes read from a FIFO would be lost to the import.
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        if type == .typeRegular, let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }
            if let bytes = try? handle.read(upToCount: 256), let format = ImportFormat(content: bytes) {
                return format
            }
        }
        return ImportFormat(fileName: path)
    }

    /// Streams the prospects `query` selects in `format` to `destination`, and returns how many there were. A list
    /// of any length holds one chunk (64 KiB) and one prospect in memory. Throws `StoreError` for the store and
    /// `OutputFileError` for the file; a file is left as it was when the export fails. A CSV `profile` writes
    /// another product's columns (`CSVProfile`); other formats ignore it.
    public func export(
        _ query: ProspectQuery, format: ExportFormat, guardsFormulas: Bool, profile: CSVProfile? = nil,
        to destination: ExportDestination
    ) throws -> Int {
        // Opened before the file is: a store that cannot be read leaves the file as it was.
        _ = try store()
        let exporter = ProspectExporter(format: format, guardsFormulas: guardsFormulas, profile: profile)
        var file: OutputFile.Writer?
        var stream: (([UInt8]) -> Bool)?
        switch destination {
        case .file(let path): file = try OutputFile.open(path)
        case .stream(let write): stream = write
        }
        var chunk = Array(exporter.header().utf8)
        chunk.reserveCapacity(1 << 16)
        var failure: OutputFileError?
        func flush() -> Bool {
            var goOn = true
            if let file {
                do throws(OutputFileError) { try file.write(chunk) } catch {
                    failure = error
                    return false
                }
            } else if let stream {
                // A closed or full stream: formatting the rest would be for nothing.
                goOn = stream(chunk)
            }
            chunk.removeAll(keepingCapacity: true)
            return goOn
        }
        var count = 0
        let store = try store()
        var notesFailure: StoreError?
        try forEach(query) { prospect in
            let notes: [ProspectNote]
            let history: [ScanRecord]
            do throws(StoreError) {
                notes = try store.notes(of: prospect.id)
                history = exporter.writesHistory ? try store.history(of: prospect.id) : []
            } catch {
                notesFailure = error
                return false
            }
            chunk += exporter.record(prospect, notes: notes, history: history).utf8
            count += 1
            return chunk.count < 1 << 16 || flush()
        }
        if let notesFailure { throw notesFailure }
        _ = flush()
        if let failure { throw failure }
        try file?.finish()
        return count
    }

    // MARK: Without a store

    /// Who is at the keyboard when no one signed in: `LOGNAME`, else `USER` in `environment`, else the password
    /// database's name for this process's user. The default author of notes and collector of scans.
    public static func loginName(environment: [String: String]) -> String {
        for variable in ["LOGNAME", "USER"] {
            if let name = environment[variable], !name.isEmpty { return name }
        }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return "uid \(geteuid())"
    }

    /// Decodes every image under `paths` on `workers` threads (nil: one per core) and hands each file's outcome to
    /// `each` in input order. Paths that cannot be read go to `missing`, folders without an image to `noImages`, and
    /// files in folders that are no pictures to `skipped`, all before the first outcome.
    public static func decode(
        _ paths: [String], workers: Int?, pixelLimit: Int, missing: (_ path: String, _ error: ScanError) -> Void,
        noImages: (_ folder: String) -> Void, skipped: (_ path: String, _ kind: String) -> Void,
        each: (FileOutcome) -> Void
    ) {
        let jobs = InputWalker.jobs(for: paths, missing: missing, noImages: noImages, skipped: skipped)
        let processor = ParallelProcessor(workers: workers, options: .init(pixelLimit: pixelLimit, hashContent: false))
        processor.run(jobs, consume: each)
    }
}

/// Where `ProspectsService.export` writes.
public enum ExportDestination {
    /// A file, written as `OutputFile` writes (private, replaced atomically, never a database).
    case file(path: String)
    /// Chunks handed to a stream (a front-end's stdout, an HTTP body); it returns false to stop the export.
    case stream((_ chunk: [UInt8]) -> Bool)
}
