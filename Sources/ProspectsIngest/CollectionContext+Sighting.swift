import Foundation
import ProspectStore
import ProspectsCore

extension CollectionContext {
    /// A sighting of `prospect` in this context.
    func sighting(
        _ prospect: Prospect, source: String, seenAt: Date, contactedIfNew: Bool = false,
        createdAtIfNew: Date? = nil, remindAtIfNew: Date? = nil, carried: CarriedLead? = nil
    ) -> Sighting {
        Sighting(
            prospect: prospect, source: source, seenAt: seenAt, contactedIfNew: contactedIfNew,
            createdAtIfNew: createdAtIfNew, remindAtIfNew: remindAtIfNew, event: event, collectedBy: collectedBy,
            carried: carried)
    }
}
