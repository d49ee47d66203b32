import Foundation
import ProspectStore
import ProspectsCore

/// The prospects with a reminder, grouped as a planner groups events: overdue, the next 7 days, the next 30 days,
/// later; each group earliest first. Pure: the time is a value.
public struct ReminderGroups: Sendable, Hashable {
    /// Reminders at or before now.
    public var overdue: [StoredProspect] = []
    /// After now, within 7 days.
    public var nextWeek: [StoredProspect] = []
    /// After 7 days, within 30.
    public var nextMonth: [StoredProspect] = []
    /// After 30 days.
    public var later: [StoredProspect] = []

    /// Sorts `prospects` (those without a reminder are left out) into the groups, each by reminder time then id.
    public init(_ prospects: [StoredProspect], now: Date) {
        let day: TimeInterval = 86_400
        let sorted = prospects.compactMap { prospect in prospect.remindAt.map { (prospect, $0) } }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.id < $1.0.id }
        for (prospect, at) in sorted {
            switch at.timeIntervalSince(now) {
            case ...0: overdue.append(prospect)
            case ...(7 * day): nextWeek.append(prospect)
            case ...(30 * day): nextMonth.append(prospect)
            default: later.append(prospect)
            }
        }
    }

    public var isEmpty: Bool { overdue.isEmpty && nextWeek.isEmpty && nextMonth.isEmpty && later.isEmpty }
}
