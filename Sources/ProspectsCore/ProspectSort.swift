/// The app's sort menu: by name (A→Z), or most recent first. `reverse` flips either.
public enum ProspectSort: String, Sendable, CaseIterable {
    case name, recent
}
