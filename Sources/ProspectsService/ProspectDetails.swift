import ProspectStore

/// Everything known about one prospect: what the store holds and every sighting of it, oldest first.
public struct ProspectDetails: Sendable, Hashable {
    public var stored: StoredProspect
    public var history: [ScanRecord]

    public init(stored: StoredProspect, history: [ScanRecord]) {
        self.stored = stored
        self.history = history
    }
}
