/// How promising the team finds a prospect; `none` until someone rates them.
public enum ProspectRating: String, Sendable, Hashable, CaseIterable {
    case hot, warm, cold, none
}
