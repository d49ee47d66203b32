/// A job (`Ingester`, `Importer`) stopped at a person's request (SIGINT or SIGTERM) between two batches: what it
/// reported before is in the store and nothing else is; its `committed` property says how much.
public struct Interrupted: Error, Sendable, Hashable {
    public init() {}
}
