import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange
import SystemCalls

/// Loads an existing list (a CRM export) into the store, streaming, under the same rules as scanned codes.
///
/// Each row is validated exactly as a scanned MECARD with the same fields would be (`ProspectBuilder`) and
/// recorded through the store's dedup key, in batches. Reading and validating run on a second thread a few batches
/// ahead of the store's writes, so both cores work and memory stays flat. In SQLite, a batch the reader has ready
/// joins the open transaction, for up to a second. A row's contacted flag, added date and reminder (as our export
/// writes them) apply to a new prospect; a known prospect keeps what the team gave it. A list whose bytes the
/// store's ledger holds was imported before: it is imported again without counting anyone twice, as `ingest` treats
/// a picture loaded before.
public final class Importer {
    /// One row that was not imported, and why (ProspectsCore's, so that a front-end reads it without ingest).
    public typealias Rejection = ImportRejection
    /// What an import did, row by row.
    public typealias Totals = ImportTotals

    /// What a row's reader said about it, for the person importing: in file order.
    enum Report: Sendable {
        case rejected(Rejection)
        /// The row went in without an optional cell that could not be read.
        case ignoredCell(line: Int, what: String)
    }

    /// What the reading thread hands the writing thread: up to `batchSize` rows, valid or not.
    struct Batch: Sendable {
        var rows = 0
        /// The line the batch's last record starts on.
        var lastLine = 0
        var sightings: [Sighting] = []
        /// The sightings with the values their writes bind, made by the reader (`sealed`) so the writer only writes.
        var prepared: PreparedSightings?
        var reports: [Report] = []
        /// The file ended with this batch (not an error): the list is whole once it is in.
        var endsTheList = false
        var rejected: Int { reports.count { if case .rejected = $0 { true } else { false } } }

        /// The batch as it is sent to the writer: with its sightings prepared, for a store that binds prepared
        /// values (SQLite; PostgreSQL sends its own).
        func sealed(preparing: Bool) -> Batch {
            guard preparing else { return self }
            var batch = self
            batch.prepared = PreparedSightings(sightings)
            return batch
        }
    }

    private let store: any ProspectStore
    private let batchSize: Int
    /// How many batches the reader may have ready while one is written.
    private let batchesAhead: Int
    private var stopSignals: SignalPipe?
    /// The totals of the rows committed so far, and the line the last of them starts on: when the store fails
    /// half-way, what is in it already (importing the whole file again would count those rows twice).
    public private(set) var committed = Totals()
    public private(set) var committedThroughLine = 0
    /// The ledger entry of the same bytes imported before, once `run` has looked it up: this import then only
    /// brings back the prospects deleted since.
    public private(set) var importedBefore: LedgerEntry?
    /// The ledger entry the last batch commits with, for a list the ledger does not hold yet.
    private var newEntry: LedgerEntry?

    private let firstLine: Int
    private let context: CollectionContext

    /// `batchSize` rows per batch, the first at most 1,000 so that the writer starts early; by default 500 rows,
    /// eight of them read ahead, where the store groups batches into one transaction (SQLite), and 10,000, one
    /// ahead, where each batch is a transaction of its own (PostgreSQL). Small batches keep both threads busy to
    /// the end and their memory in the heap, reused (larger blocks are mapped and unmapped each time); docs/
    /// performance.md has the figures. Another process waiting to write is held up for about a second at most (a
    /// transaction takes no new batch after a second, and finishes the one it has).
    /// Records that start before `firstLine` are read past, neither imported nor counted: the way to finish an
    /// import that stopped half-way without counting its first rows twice.
    /// Every row records `context`'s event and collector.
    public init(
        store: any ProspectStore, batchSize: Int? = nil, firstLine: Int = 1, context: CollectionContext = .init()
    ) {
        self.store = store
        self.context = context
        let grouped = store is any TransactionGrouping
        self.batchSize = max(1, batchSize ?? (grouped ? 500 : 10_000))
        self.batchesAhead = grouped ? 8 : 1
        self.firstLine = firstLine
    }

    /// From now on, SIGINT or SIGTERM make `run` stop before the next batch is written, throwing `Interrupted`, so
    /// that the caller can say which rows are in: before a batch is written, or within a tenth of a second while
    /// the reader is slow. A second signal ends the process at once.
    public func stopOnInterrupt() throws(SystemCallError) {
        stopSignals = try SignalPipe(once: true)
    }

    /// Imports every record `reader` yields; `reject` hears of each invalid or malformed row, and `ignore` of each
    /// optional cell a row went in without (line, what it was), in file order, and the import goes on. Throws when
    /// the file cannot be read on (an `ImportError` other than `.malformed`, after the rows before it are recorded)
    /// and for the store (`StoreError`).
    ///
    /// With the `contentHash` of the list's bytes (`ContentHash.sha256(ofRegularFile:)`), a list the ledger holds is
    /// imported without counting anyone again (`importedBefore`), and one it does not is entered in the ledger with
    /// its last batch: not before, so that an import that stopped half-way can still be finished; only when it
    /// recorded a prospect (outcome `inserted`), so that a `--from-line` past the end or a list of rejected rows marks
    /// nothing; and only if `unchanged` says, once the list has been read, that it is still the bytes hashed.
    public func run(
        source: String, reader: sending any ImportRecordReader, contentHash: String? = nil,
        unchanged: () -> Bool = { true }, reject: (Rejection) -> Void,
        ignore: (_ line: Int, _ what: String) -> Void = { _, _ in }
    ) throws -> Totals {
        let seenAt = Date()
        importedBefore = nil
        newEntry = nil
        if let contentHash {
            importedBefore = try store.ledgerEntry(contentHash: contentHash)
            if importedBefore == nil {
                newEntry = LedgerEntry(
                    contentHash: contentHash, fileName: source, outcome: .inserted, prospects: 0, processedAt: seenAt)
            }
        }
        let handOff = HandOff<Batch, ImportError>(capacity: batchesAhead)
        let written = WrittenBatches()
        let owned = Owned(reader)
        let batchSize = batchSize
        let firstLine = firstLine
        let context = context
        let preparing = store is SQLiteStore
        let thread = Thread {
            Self.read(
                owned.value, source: source, seenAt: seenAt, batchSize: batchSize, firstLine: firstLine,
                context: context, into: handOff, preparing: preparing, freeing: written)
        }
        thread.start()

        let grouping = store as? any TransactionGrouping
        var totals = Totals()
        var throughLine = 0
        do {
            // Waiting for the reader happens outside any transaction: it may be reading a slow pipe.
            while var next = try nextBatch(from: handOff) {
                var stop: (any Error)?
                try inTransaction(grouping) { () throws(StoreError) in
                    let openedAt = ContinuousClock.now
                    while true {
                        // Checked before a batch is written, not after: the last batch written ends the import,
                        // so an interrupt that comes while it is written cannot claim that rows are missing.
                        if let stopSignals, stopSignals.drain() > 0 {
                            // Not waiting for the reader: it may be blocked reading a pipe, and the process ends.
                            handOff.cancel()
                            stop = Interrupted()
                            return
                        }
                        let batch: Batch
                        switch next {
                        case .success(let received): batch = received
                        case .failure(let error):
                            // The reader has stopped; the rows before the error are committed with this transaction.
                            stop = error
                            return
                        }
                        for report in batch.reports {
                            switch report {
                            case .rejected(let rejection): reject(rejection)
                            case .ignoredCell(let line, let what): ignore(line, what)
                            }
                        }
                        totals.rows += batch.rows
                        totals.rejected += batch.rejected
                        try record(batch, into: &totals, unchanged: unchanged)
                        written.add(batch)
                        // The reader's last batch may hold no row; it moves no line.
                        if batch.rows > 0 { throughLine = batch.lastLine }
                        // A batch the reader has ready joins this transaction, unless it has been open a second.
                        guard grouping != nil, ContinuousClock.now - openedAt < .seconds(1),
                            let ready = handOff.receiveIfReady()
                        else { return }
                        next = ready
                    }
                }
                committed = totals
                committedThroughLine = throughLine
                if let stop { throw stop }
            }
        } catch let interrupted as Interrupted {
            throw interrupted
        } catch {
            handOff.cancel()
            handOff.waitUntilFinished()
            throw error
        }
        return totals
    }

    /// The reader's next batch, or nil once it is done. A stop signal that comes while the reader is slow (a pipe
    /// that delivers a row now and then) is seen within a tenth of a second, not only when the next batch is ready.
    private func nextBatch(from handOff: HandOff<Batch, ImportError>) throws -> Result<Batch, ImportError>? {
        guard let stopSignals else { return handOff.receive() }
        while true {
            switch handOff.receive(before: Date(timeIntervalSinceNow: 0.1)) {
            case .received(let next): return next
            case .timedOut:
                if stopSignals.drain() > 0 {
                    handOff.cancel()
                    throw Interrupted()
                }
            }
        }
    }

    /// Runs `body` in one transaction where the store can hold one open across batches (SQLite: each commit rewrites
    /// every page of the dedup index its rows touched, so a 100,000-row import commits twice, not ten times: once for
    /// the small first batch, written before the second is read, and once for the rest).
    private func inTransaction(_ grouping: (any TransactionGrouping)?, _ body: () throws(StoreError) -> Void)
        throws(StoreError)
    {
        if let grouping { try grouping.inOneTransaction(body) } else { try body() }
    }

    private func record(_ batch: Batch, into totals: inout Totals, unchanged: () -> Bool) throws(StoreError) {
        var groups: [LedgeredSightings] = []
        if !batch.sightings.isEmpty {
            // With the entry of the list imported before, the store finds it in its ledger and only restores.
            groups.append(
                batch.prepared.map { LedgeredSightings(entry: importedBefore, prepared: $0) }
                    ?? LedgeredSightings(entry: importedBefore, sightings: batch.sightings))
        }
        // Every valid row is inserted or a duplicate, so the count is known before the store answers.
        let carried = totals.inserted + totals.duplicates + batch.sightings.count
        if batch.endsTheList, var entry = newEntry, carried > 0, unchanged() {
            entry.prospects = carried
            groups.append(LedgeredSightings(entry: entry, sightings: []))
        }
        guard !groups.isEmpty else { return }
        for group in try store.record(groups) {
            switch group {
            case .recorded(let results):
                for result in results {
                    switch result {
                    case .inserted: totals.inserted += 1
                    case .duplicate: totals.duplicates += 1
                    }
                }
            case .alreadyInLedger(let restored):
                for id in restored {
                    if id == nil { totals.alreadyIn += 1 } else { totals.inserted += 1 }
                }
            }
        }
    }

    /// The reading thread: validates rows into batches until the file ends, fails, or the writer gives up.
    static func read(
        _ reader: any ImportRecordReader, source: String, seenAt: Date, batchSize: Int, firstLine: Int,
        context: CollectionContext = .init(), into handOff: HandOff<Batch, ImportError>, preparing: Bool = true,
        freeing written: WrittenBatches = .init()
    ) {
        let parser = PayloadParser()
        // Each row's source is `FILE:LINE`: the prefix made once, not interpolated anew on every row.
        let sourcePrefix = source + ":"
        var batch = Batch()
        // The writer waits for the first batch, so it is small: the time a whole batch takes to read would all be
        // time the writer spent waiting.
        var limit = min(batchSize, 1_000)
        // Room for a whole batch at once: grown by doubling, the array was copied and its pages touched again.
        batch.sightings.reserveCapacity(limit)
        do throws(ImportError) {
            while true {
                var record: ImportRecord?
                var rejection: Rejection?
                do throws(ImportError) {
                    guard let next = try reader.next() else { break }
                    record = next
                } catch .malformed(let line, let reason) {
                    // One bad record costs that record only: the readers resume at the next one.
                    rejection = Rejection(line: line, reason: .malformed(reason))
                }
                if (record?.line ?? rejection?.line ?? firstLine) < firstLine { continue }
                // A full batch goes once another record is known to follow, so that the last batch with rows is
                // the one that ends the list (and commits its ledger entry), never an empty one after it.
                if batch.rows >= limit {
                    guard handOff.send(batch.sealed(preparing: preparing)) else { return handOff.finish(nil) }
                    written.free()
                    batch = Batch()
                    limit = batchSize
                    batch.sightings.reserveCapacity(limit)
                }
                batch.rows += 1
                // Soon after the writer is done with a batch, not only once this one is full: memory stays flat.
                if batch.rows % 256 == 0 { written.free() }
                batch.lastLine = record?.line ?? rejection?.line ?? batch.lastLine
                // Taken, not copied: a copy retains and releases every field of the record.
                if let record = record.take() {
                    switch validate(record, parser: parser) {
                    case .success(var prospect):
                        if record.replacesCardNote { prospect.note = nil }
                        var ignored = record.ignored
                        let carried = Self.carried(record, context: context, seenAt: seenAt, ignored: &ignored)
                        for what in ignored {
                            batch.reports.append(.ignoredCell(line: record.line, what: what))
                        }
                        // The list's own flag (a CRM's state, or our export's column) applies to new prospects only.
                        batch.sightings.append(
                            context.sighting(
                                prospect, source: sourcePrefix + String(record.line), seenAt: seenAt,
                                // An added date in the future would keep the row first in `--sort recent` for ever.
                                contactedIfNew: record.contacted == true,
                                createdAtIfNew: record.createdAt.map { min($0, seenAt) },
                                remindAtIfNew: record.remindAt, carried: carried))
                    case .failure(let error):
                        rejection = Rejection(line: record.line, reason: .invalid(error))
                    }
                }
                if let rejection { batch.reports.append(.rejected(rejection)) }
            }
            batch.endsTheList = true
            _ = handOff.send(batch.sealed(preparing: preparing))
            handOff.finish(nil)
        } catch {
            // The rows before a malformed record are still imported, as the error message promises.
            _ = handOff.send(batch.sealed(preparing: preparing))
            handOff.finish(error)
        }
    }

    /// The same rules, and the same builder, as a scanned MECARD or vCard with these fields: each is trimmed and put
    /// in NFC, a blank phone or organisation is left out, and a field that breaks a rule gets the same error. A
    /// line break inside a quoted name, phone or organisation cell (a CRM's two-line company field) becomes a
    /// space first; in an address it is an error, as it would start another line of a scanned code.
    static func validate(_ record: ImportRecord, parser: PayloadParser) -> Result<Prospect, ScanError> {
        // A card of a .vcf file is read as the same card scanned would be.
        if let card = record.card { return parser.parse(utf8: card) }
        if let scalar = Self.firstNewline(in: record.email) {
            return .failure(.unsafeCharacters(field: "email", scalar: scalar.value))
        }
        // The fields as they are: joined into one payload, a name holding a MECARD would replace the address.
        return parser.prospect(
            name: Self.joiningLines(record.name), email: record.email, phone: record.phone.map(Self.joiningLines),
            organization: record.organization.map(Self.joiningLines), title: record.title.map(Self.joiningLines),
            nameParts: record.nameParts, otherEmails: record.otherEmails,
            otherPhones: record.otherPhones.map(Self.joiningLines))
    }

    /// What `record` carries beyond its card, each note, tag, author, event and collector checked as the `note` and
    /// `tag` commands check what a person types (`FreeText`); one that fails is left out and said in `ignored`, and
    /// the lead goes in without it. Notes given as text alone are signed by the import's collector, at `seenAt`.
    static func carried(_ record: ImportRecord, context: CollectionContext, seenAt: Date, ignored: inout [String])
        -> CarriedLead?
    {
        guard record.carried != nil || !record.plainNotes.isEmpty else { return nil }
        var carried = record.carried ?? CarriedLead()
        func line(_ text: String?, _ field: String) -> String?? {
            guard let text else { return .some(nil) }
            switch FreeText.line(text, field: field) {
            case .success(let cleaned?) where !cleaned.contains(where: \.isNewline): return .some(cleaned)
            case .success(nil): return .some(nil)
            default:
                ignored.append("a \(field) \"\(SafeText.escaped(text, limit: 40))\" that is not one line of plain text")
                return nil
            }
        }
        let notes =
            carried.notes
            + record.plainNotes.map { ProspectNote(writtenAt: seenAt, author: context.collectedBy ?? "", text: $0) }
        carried.notes = notes.compactMap { note in
            guard case .success(let text?) = FreeText.note(note.text) else {
                if !note.text.allSatisfy(\.isWhitespace) {
                    ignored.append("a note \"\(SafeText.escaped(note.text, limit: 40))\" that is not plain text")
                }
                return nil
            }
            guard let author = line(note.author, "author") else { return nil }
            return ProspectNote(writtenAt: note.writtenAt, author: author ?? "", text: text)
        }
        var tags: [String] = []
        for tag in carried.tags {
            if case .some(let cleaned?) = line(tag, "tag"), !tags.contains(cleaned) { tags.append(cleaned) }
        }
        carried.tags = tags
        carried.history = carried.history.compactMap { scan in
            guard let source = line(scan.source, "source"), let source, let event = line(scan.event, "event"),
                let collectedBy = line(scan.collectedBy, "collector")
            else { return nil }
            return ScanRecord(source: source, seenAt: min(scan.seenAt, seenAt), event: event, collectedBy: collectedBy)
        }
        return carried
    }

    /// `text.first(where: \.isNewline)` without grapheme breaking: `Character.isNewline` looks at a
    /// character's first scalar, and each of these scalars (grapheme break class CR, LF or Control) starts one.
    static func firstNewline(in text: String) -> Unicode.Scalar? {
        firstBreak(in: text, orTab: false)
    }

    /// The first line break (`isLineBreak`), or tab too when `orTab`, in `text`, found by its UTF-8 bytes: this
    /// runs on every row's address and name, and the scalar view decodes each scalar. In UTF-8, 0x09 to 0x0D are
    /// those scalars only, and C2 85 (U+0085), E2 80 A8 and E2 80 A9 (U+2028, U+2029) start with a lead byte.
    static func firstBreak(in text: String, orTab: Bool) -> Unicode.Scalar? {
        func search(_ bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                // Most bytes are none of them: one test each.
                if byte > 0x0D && byte != 0xC2 && byte != 0xE2 {
                    index += 1
                    continue
                }
                if byte >= 0x0A && byte <= 0x0D || orTab && byte == 0x09 { return Unicode.Scalar(byte) }
                if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 { return "\u{85}" }
                if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                    bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
                {
                    return bytes[index + 2] == 0xA8 ? "\u{2028}" : "\u{2029}"
                }
                index += 1
            }
            return nil
        }
        return text.utf8.withContiguousStorageIfAvailable(search)
            ?? text.unicodeScalars.first { orTab ? isBreakOrTab($0) : isLineBreak($0) }
    }

    /// `text` with each run of line breaks and tabs, and the spaces around it, replaced by one space, and trimmed
    /// of them at either end. A tab is a cell's layout as a line break is (pasted from a spreadsheet), not a
    /// character a name holds, and it would cost the row as an unsafe character.
    static func joiningLines(_ text: String) -> String {
        guard firstBreak(in: text, orTab: true) != nil else { return text }
        var joined = String.UnicodeScalarView()
        var pendingSpace = false
        var breaking = false
        for scalar in text.unicodeScalars {
            if isBreakOrTab(scalar) {
                breaking = true
                // Spaces and tabs before the break go with it.
                while let last = joined.last, last == " " || last == "\t" { joined.removeLast() }
                pendingSpace = !joined.isEmpty
            } else if breaking && scalar == " " {
                continue
            } else {
                if pendingSpace { joined.append(" ") }
                pendingSpace = false
                breaking = false
                joined.append(scalar)
            }
        }
        return String(joined)
    }

    private static func isBreakOrTab(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || isLineBreak(scalar)
    }

    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
