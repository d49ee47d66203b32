/// Who may take a route, in rising order: a visitor (not signed in), any signed-in account, an admin. A route asks
/// for the least role that may take it; a viewer holds one role and may take every route at or below it.
enum RouteRole: Int, Comparable, CaseIterable, Sendable {
    case visitor
    case staff
    case admin

    static func < (lhs: RouteRole, rhs: RouteRole) -> Bool { lhs.rawValue < rhs.rawValue }
}
