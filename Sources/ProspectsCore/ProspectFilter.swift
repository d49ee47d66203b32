/// The app's three tabs.
public enum ProspectFilter: String, Sendable, CaseIterable {
    case everyone, contacted, uncontacted
}
