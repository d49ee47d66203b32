import Foundation
import ProspectStore
import ProspectsCore
import ProspectsExchange

/// Loads an existing list (a CRM export) into the store, streaming, under the same rules as scanned codes.
///
/// Each row is validated exactly as a scanned two-line payload would be (name, email, unsafe characters) and
/// recorded through the store's dedup key, in transactions of `batchSize` rows; only one batch is held in memory.
/// A row marked contacted makes a new prospect contacted; a known prospect keeps the state the team gave it.
public final class Importer {
    /// One row that was not imported, and why.
    public struct Rejection: Sendable {
        public var line: Int
        public var error: ScanError
    }

    public struct Totals: Sendable, Hashable {
        public var rows = 0
        public var inserted = 0
        public var duplicates = 0
        public var rejected = 0
    }

    private let store: any ProspectStore
    private let batchSize: Int
    private let parser = PayloadParser()

    public init(store: any ProspectStore, batchSize: Int = 5_000) {
        self.store = store
        self.batchSize = max(1, batchSize)
    }

    /// Imports every record `next` yields; `reject` hears of each invalid row, and the import goes on.
    /// Throws for an unreadable or malformed file (`ImportError`) and for the store (`StoreError`).
    public func run(
        source: String, next: () throws -> ImportRecord?, reject: (Rejection) -> Void
    ) throws -> Totals {
        var totals = Totals()
        var batch: [Sighting] = []
        batch.reserveCapacity(batchSize)
        // Rows the list marks as contacted (a CRM's own state, or our export's column), by position in `batch`.
        var contacted: [Int] = []
        let seenAt = Date()

        func flush() throws {
            guard !batch.isEmpty else { return }
            let results = try store.record(batch)
            for result in results {
                switch result {
                case .inserted: totals.inserted += 1
                case .duplicate: totals.duplicates += 1
                }
            }
            // Only a prospect this import creates takes the list's flag; one already known keeps what the team set.
            for index in contacted {
                if case .inserted(let id) = results[index] { _ = try store.setContacted(.id(id), true) }
            }
            batch.removeAll(keepingCapacity: true)
            contacted.removeAll(keepingCapacity: true)
        }

        while let record = try next() {
            totals.rows += 1
            switch validate(record) {
            case .success(let prospect):
                if record.contacted == true { contacted.append(batch.count) }
                batch.append(Sighting(prospect: prospect, source: "\(source):\(record.line)", seenAt: seenAt))
                if batch.count >= batchSize { try flush() }
            case .failure(let error):
                totals.rejected += 1
                reject(Rejection(line: record.line, error: error))
            }
        }
        try flush()
        return totals
    }

    /// The same rules as a scanned `Name\nemail` code, plus the optional fields' safety.
    func validate(_ record: ImportRecord) -> Result<Prospect, ScanError> {
        if Self.hasNewline(record.name) || Self.hasNewline(record.email) {
            return .failure(.wrongLineCount(3))
        }
        var prospect: Prospect
        // The fields as they are: joined into one payload, a name holding a MECARD would replace the address.
        switch parser.prospect(name: record.name, email: record.email) {
        case .success(let parsed): prospect = parsed
        case .failure(let error): return .failure(error)
        }
        for (field, value) in [("phone", record.phone), ("organization", record.organization)] {
            if let value, let scalar = SafeText.firstUnsafe(in: value) {
                return .failure(.unsafeCharacters(field: field, scalar: scalar.value))
            }
        }
        prospect.phone = record.phone.flatMap { $0.isEmpty ? nil : $0 }
        prospect.organization = record.organization.flatMap { $0.isEmpty ? nil : $0 }
        return .success(prospect)
    }

    /// `text.contains(where: \.isNewline)` without grapheme breaking: `Character.isNewline` looks at a
    /// character's first scalar, and each of these scalars (grapheme break class CR, LF or Control) starts one.
    static func hasNewline(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
            default: false
            }
        }
    }
}
