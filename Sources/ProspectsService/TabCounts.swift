import ProspectStore
import ProspectsCore

/// How many prospects the app's three tabs hold.
public struct TabCounts: Sendable, Hashable {
    public var everyone: Int
    public var contacted: Int
    public var uncontacted: Int { everyone - contacted }

    public init(everyone: Int, contacted: Int) {
        self.everyone = everyone
        self.contacted = contacted
    }

    /// The count of the tab `filter` names.
    public subscript(filter: ProspectFilter) -> Int {
        switch filter {
        case .everyone: everyone
        case .contacted: contacted
        case .uncontacted: uncontacted
        }
    }
}
