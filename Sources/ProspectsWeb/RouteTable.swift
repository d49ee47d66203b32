/// The web front-end's routes: each a method, a path pattern, the role it needs and its handler. Pure: it answers
/// which route a request takes, or why none (no such path: 404; not by that method: 405 with the methods it
/// allows; not for this viewer: refused), and knows nothing of HTTP beyond method names and paths.
struct RouteTable<Handler: Sendable>: Sendable {
    /// One route. `pattern` is a path whose segments are literal (`users`) or parameters (`:receipt`, any one
    /// segment; `:id`, a positive 64-bit integer, so that `/leads/0` and `/leads/x` match no route).
    struct Route: Sendable {
        var method: String
        var pattern: String
        var role: RouteRole
        /// What the route does, as "Only an admin may …" finishes it when the role refuses a viewer.
        var purpose: String
        var handler: Handler

        init(_ method: String, _ pattern: String, role: RouteRole, purpose: String = "do that", _ handler: Handler) {
            self.method = method
            self.pattern = pattern
            self.role = role
            self.purpose = purpose
            self.handler = handler
            segments = Self.split(pattern)
        }

        /// The pattern's segments, as `split` cuts a path.
        let segments: [String]

        /// A path's segments: empty ones left out, so that `/scan/` and `//scan` are `/scan`.
        static func split(_ path: String) -> [String] {
            path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        }

        /// The parameters of `segments` when they fit the pattern, else nil.
        func parameters(_ segments: [String]) -> [String: String]? {
            guard segments.count == self.segments.count else { return nil }
            var parameters: [String: String] = [:]
            for (expected, segment) in zip(self.segments, segments) {
                if expected.hasPrefix(":") {
                    let name = String(expected.dropFirst())
                    if name == "id" {
                        guard let id = Int64(segment), id > 0 else { return nil }
                    }
                    parameters[name] = segment
                } else if expected != segment {
                    return nil
                }
            }
            return parameters
        }

        /// GET routes answer HEAD too.
        func takes(_ method: String) -> Bool {
            self.method == method || (self.method == "GET" && method == "HEAD")
        }
    }

    /// Where a request goes.
    enum Resolution {
        /// The route to run, with the path's parameters by name (`id` for `:id`).
        case route(Route, parameters: [String: String])
        /// A route fits the method and path, but it needs a role above the viewer's.
        case refused(Route)
        /// No route has this path.
        case notFound
        /// Routes have this path, by other methods: `allowed`, as the `Allow` header lists them.
        case methodNotAllowed(allowed: [String])
    }

    let routes: [Route]

    init(_ routes: [Route]) {
        self.routes = routes
    }

    /// The route `method` and `path` take for a viewer holding `role`; the first route that fits wins.
    func resolve(_ method: String, _ path: String, as role: RouteRole) -> Resolution {
        let segments = Route.split(path)
        var allowed: Set<String> = []
        for route in routes {
            guard let parameters = route.parameters(segments) else { continue }
            guard route.takes(method) else {
                allowed.insert(route.method)
                if route.method == "GET" { allowed.insert("HEAD") }
                continue
            }
            return role >= route.role ? .route(route, parameters: parameters) : .refused(route)
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: Self.methodOrder(allowed))
    }

    /// GET, HEAD, POST first, in that order, then any other method by name.
    private static func methodOrder(_ methods: Set<String>) -> [String] {
        let usual = ["GET", "HEAD", "POST"]
        return usual.filter(methods.contains) + methods.subtracting(usual).sorted()
    }
}
