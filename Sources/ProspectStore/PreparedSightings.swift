import ProspectsCore

/// Sightings with the values SQLite binds to record them, made ahead of the write: an import prepares each batch on
/// its reading thread, so that the writing thread, which holds the store's write lock, only binds and steps.
public struct PreparedSightings: Sendable {
    public let sightings: [Sighting]
    /// Each sighting's upsert values (`ProspectSQL.upsertValues`), a row each; the store's error for a text it
    /// cannot hold (a NUL), thrown when they are recorded.
    let upserts: Result<PackedArguments<ProspectSQL.SightingValue>, StoreError>
    /// Per sighting: whether its upsert is the plain one (`ProspectSQL.isPlain`).
    let plain: [Bool]
    /// Per sighting: whether a prospect it creates has rows of its own to record (other addresses, a note).
    let hasDetails: [Bool]

    public init(_ sightings: [Sighting]) {
        self.sightings = sightings
        var plain: [Bool] = []
        var hasDetails: [Bool] = []
        plain.reserveCapacity(sightings.count)
        hasDetails.reserveCapacity(sightings.count)
        // About 200 bytes of text a row of a name and an address: keys, source, collector.
        var values = PackedArguments<ProspectSQL.SightingValue>(rows: sightings.count, textBytes: 256 * sightings.count)
        var problem: StoreError?
        // One call a sighting: each access to an element through another call copied it, a retain for each text.
        for sighting in sightings {
            let facts = ProspectSQL.facts(of: sighting)
            plain.append(facts.plain)
            hasDetails.append(facts.hasDetails)
            guard problem == nil else { continue }
            values.appendRow()
            do throws(StoreError) {
                try ProspectSQL.setUpsertValues(sighting, in: &values)
            } catch {
                problem = error
            }
        }
        self.plain = plain
        self.hasDetails = hasDetails
        upserts = problem.map { .failure($0) } ?? .success(values)
    }
}
