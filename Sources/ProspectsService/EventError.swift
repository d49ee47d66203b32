import ProspectStore
import ProspectsCore

/// Why an event could not be added, changed or read; nothing was changed.
public enum EventError: Error, Sendable, Hashable {
    /// The name, or the location, breaks the rules a card's one-line fields meet.
    case invalidText(ScanError)
    /// An event needs a name.
    case blankName
    /// A date that is not `YYYY-MM-DD`, or no such day; `option` names where it was given.
    case invalidDay(option: String, text: String)
    case endsBeforeItStarts(starts: EventDay, ends: EventDay)
    case invalidBadgePattern(BadgePatternError)
    case nameTaken(String)
    case noSuchEvent(String)
    case store(StoreError)

    /// A sentence for a person; input quoted in it is escaped.
    public var message: String {
        switch self {
        case .invalidText(let error): error.message
        case .blankName: "an event needs a name"
        case .invalidDay(let option, let text):
            "\(option) must be a day as YYYY-MM-DD (2026-03-18), not \(SafeText.escaped(text))"
        case .endsBeforeItStarts(let starts, let ends): "the event cannot end (\(ends)) before it starts (\(starts))"
        case .invalidBadgePattern(let error): SafeText.escaped(error.message)
        case .nameTaken(let name): "there is already an event named \(SafeText.escaped(name))"
        case .noSuchEvent(let name):
            "there is no event named \(SafeText.escaped(name)) (prospects event list shows them; "
                + "prospects event add makes one)"
        case .store(let error): error.message
        }
    }
}
