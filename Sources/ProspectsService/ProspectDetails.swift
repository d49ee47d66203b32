import ProspectStore
import ProspectsCore

/// Everything known about one prospect: what the store holds (its tags included), its notes and every sighting of
/// it (with the event and collector of each), oldest first.
public struct ProspectDetails: Sendable, Hashable {
    public var stored: StoredProspect
    public var history: [ScanRecord]
    public var notes: [ProspectNote]

    public init(stored: StoredProspect, history: [ScanRecord], notes: [ProspectNote] = []) {
        self.stored = stored
        self.history = history
        self.notes = notes
    }

    /// Every event the prospect was collected at, in the order first met, each once.
    public var events: [String] { Self.distinct(history.compactMap(\.event)) }

    /// Everyone who collected the prospect, in the order they first did, each once.
    public var collectors: [String] { Self.distinct(history.compactMap(\.collectedBy)) }

    private static func distinct(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}
