import Foundation
import ProspectStore
import ProspectsCore

extension ProspectsService {
    /// Applies scans a phone queued, each exactly once, and answers each in order. A scan is parsed as every
    /// payload is (only what the parser accepts is stored); its rating, tags and note travel with its sighting and
    /// commit in the same transaction as the ledger entry keyed by its id, so a scan sent again after a lost answer,
    /// or by two tabs at once, is stored once. On a lead already known, the rating applies where it has none, and
    /// the note and tags are added. `now` is when the batch arrived.
    public func applyQueuedScans(_ scans: [QueuedScan], now: Date) throws(StoreError) -> [QueuedScan.Answer] {
        let store = try store(create: true)
        let parser = PayloadParser()
        var answers: [QueuedScan.Answer] = []
        for scan in scans {
            guard UUID(uuidString: scan.id) != nil else {
                answers.append(.badID)
                continue
            }
            let sighting: Sighting
            switch Self.sighting(for: scan, parser: parser) {
            case .success(let made): sighting = made
            case .failure(let error):
                answers.append(.rejected(error))
                continue
            }
            let entry = LedgerEntry(
                contentHash: scan.ledgerKey, fileName: sighting.source, outcome: .inserted, prospects: 1,
                processedAt: now)
            let results = try store.record([LedgeredSightings(entry: entry, sightings: [sighting])])
            switch results.first {
            case .recorded(let sightings):
                switch sightings.first {
                case .inserted(let id): answers.append(.stored(id: id, new: true))
                case .duplicate(let id): answers.append(.stored(id: id, new: false))
                case nil: answers.append(.alreadyStored(id: nil))
                }
            case .alreadyInLedger(let restored):
                var id = restored.first.flatMap { $0 }
                if id == nil { id = try store.prospect(.email(sighting.prospect.email))?.id }
                answers.append(.alreadyStored(id: id))
            case nil:
                answers.append(.alreadyStored(id: nil))
            }
        }
        return answers
    }

    /// The sighting a queued scan makes, its note, rating and tags carried with it; or why it cannot be one.
    static func sighting(for scan: QueuedScan, parser: PayloadParser) -> Result<Sighting, ScanError> {
        let prospect: Prospect
        switch parser.parse(scan.payload) {
        case .success(let parsed): prospect = parsed
        case .failure(let error): return .failure(error)
        }
        var carried = CarriedLead(rating: scan.rating)
        for raw in scan.tags {
            switch FreeText.line(raw, field: "tag") {
            case .success(let tag?): if !carried.tags.contains(tag) { carried.tags.append(tag) }
            case .success(nil): continue
            case .failure(let error): return .failure(error)
            }
        }
        let event: String?
        let collector: String?
        switch (Self.line(scan.event, field: "event"), Self.line(scan.collectedBy, field: "by")) {
        case (.success(let cleanedEvent), .success(let cleanedCollector)):
            event = cleanedEvent
            collector = cleanedCollector
        case (.failure(let error), _), (_, .failure(let error)): return .failure(error)
        }
        if let note = scan.note {
            switch FreeText.note(note) {
            case .success(let text?):
                carried.notes.append(ProspectNote(writtenAt: scan.scannedAt, author: collector ?? "", text: text))
            case .success(nil): break
            case .failure(let error): return .failure(error)
            }
        }
        return .success(
            Sighting(
                prospect: prospect, source: scan.source, seenAt: scan.scannedAt,
                createdAtIfNew: scan.scannedAt, event: event, collectedBy: collector,
                carried: carried == CarriedLead() ? nil : carried))
    }

    /// A one-line field cleaned as a card's are; nil stays nil.
    private static func line(_ text: String?, field: String) -> Result<String?, ScanError> {
        guard let text else { return .success(nil) }
        return FreeText.line(text, field: field)
    }
}
