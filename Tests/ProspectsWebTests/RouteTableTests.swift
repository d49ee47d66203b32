import Testing

@testable import ProspectsWeb

/// The route table alone: no server, no store. Each route's handler is its name.
@Suite struct RouteTableTests {
    typealias Table = RouteTable<String>

    let table = Table([
        .init("GET", "/", role: .staff, "list"),
        .init("GET", "/signin", role: .visitor, "sign-in page"),
        .init("POST", "/signin", role: .visitor, "sign in"),
        .init("GET", "/leads/:id", role: .staff, "lead"),
        .init("POST", "/leads/:id/mark", role: .staff, "mark lead"),
        .init("GET", "/scan/receipts/:receipt", role: .staff, "receipt"),
        .init("POST", "/delete", role: .admin, purpose: "delete leads", "delete"),
        .init("GET", "/users", role: .admin, purpose: "manage users", "users"),
        .init("POST", "/users/add", role: .admin, purpose: "manage users", "add user"),
    ])

    /// The handler's name and parameters, or what else the table answered.
    func resolved(_ method: String, _ path: String, as role: RouteRole = .admin) -> String {
        switch table.resolve(method, path, as: role) {
        case .route(let route, let parameters):
            let named = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return ([route.handler] + named).joined(separator: " ")
        case .refused(let route): return "refused: \(route.purpose)"
        case .notFound: return "404"
        case .methodNotAllowed(let allowed): return "405 " + allowed.joined(separator: ", ")
        }
    }

    @Test func literalPathsMatchByMethodAndHeadTakesGetRoutes() {
        #expect(resolved("GET", "/") == "list")
        #expect(resolved("HEAD", "/") == "list")
        #expect(resolved("GET", "/signin") == "sign-in page")
        #expect(resolved("POST", "/signin") == "sign in")
        #expect(resolved("POST", "/users/add") == "add user")
    }

    @Test func emptySegmentsAreIgnoredAsTheOldRouterDid() {
        #expect(resolved("GET", "/users/") == "users")
        #expect(resolved("GET", "//leads//7") == "lead id=7")
        #expect(resolved("GET", "") == "list")
    }

    @Test func anIDIsAPositiveSixtyFourBitInteger() {
        #expect(resolved("GET", "/leads/42") == "lead id=42")
        #expect(resolved("POST", "/leads/9223372036854775807/mark") == "mark lead id=9223372036854775807")
        for bad in ["0", "-3", "x", "1.5", "9223372036854775808", "%31"] {
            #expect(resolved("GET", "/leads/" + bad) == "404", "\(bad)")
        }
        #expect(resolved("GET", "/scan/receipts/abc-123") == "receipt receipt=abc-123")
    }

    @Test func unknownPathsAre404WhateverTheMethod() {
        #expect(resolved("GET", "/nowhere") == "404")
        #expect(resolved("POST", "/leads/5/unknown") == "404")
        #expect(resolved("PUT", "/leads/5/mark/again") == "404")
        #expect(resolved("GET", "/leads") == "404")
    }

    @Test func aKnownPathByAnotherMethodIs405WithTheMethodsItTakes() {
        #expect(resolved("POST", "/") == "405 GET, HEAD")
        #expect(resolved("GET", "/delete") == "405 POST")
        #expect(resolved("HEAD", "/leads/5/mark") == "405 POST")
        #expect(resolved("DELETE", "/signin") == "405 GET, HEAD, POST")
        #expect(resolved("PUT", "/leads/5") == "405 GET, HEAD")
        // The id must still be one: /leads/0 is no lead's path, whatever the method.
        #expect(resolved("PUT", "/leads/0") == "404")
    }

    @Test func theRoleIsCheckedByTheTableForEveryRoute() {
        #expect(resolved("POST", "/delete", as: .staff) == "refused: delete leads")
        #expect(resolved("GET", "/users", as: .staff) == "refused: manage users")
        #expect(resolved("GET", "/users", as: .admin) == "users")
        #expect(resolved("GET", "/leads/3", as: .visitor) == "refused: do that")
        #expect(resolved("GET", "/leads/3", as: .staff) == "lead id=3")
        #expect(resolved("GET", "/signin", as: .visitor) == "sign-in page")
        // A refusal is about a route that exists: an unknown path is 404 and a wrong method 405 for anyone.
        #expect(resolved("GET", "/nowhere", as: .visitor) == "404")
        #expect(resolved("GET", "/delete", as: .visitor) == "405 POST")
    }

    @Test func rolesRiseFromVisitorToAdmin() {
        #expect(RouteRole.visitor < .staff && RouteRole.staff < .admin)
        #expect(RouteRole.allCases.sorted() == [.visitor, .staff, .admin])
    }
}
