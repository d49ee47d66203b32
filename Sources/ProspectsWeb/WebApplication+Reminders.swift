import Foundation
import HTTPServer
import ProspectStore
import ProspectsCore
import ProspectsService

/// What the reminder badge needs (`GET /reminders/due`): how many reminders are due, the latest few of them, and
/// the seconds until the next one comes due, so a page asks again exactly then.
struct DueReminders: Encodable {
    struct Lead: Encodable {
        var id: Int64
        var name: String
    }

    var due: Int
    var leads: [Lead]
    var nextIn: Double?
}

extension WebApplication {
    func dueReminders() throws -> HTTPResponse {
        let time = now()
        let groups = try services.withService { try $0.reminders(at: time) }
        let next = (groups.nextWeek.first ?? groups.nextMonth.first ?? groups.later.first)?.remindAt
        let answer = DueReminders(
            due: groups.overdue.count,
            leads: groups.overdue.suffix(20).reversed().map { .init(id: $0.id, name: $0.prospect.name) },
            nextIn: next.map { max(0, $0.timeIntervalSince(time)) })
        let body = (try? JSONEncoder().encode(answer)).map(Array.init) ?? Array("{\"due\":0,\"leads\":[]}".utf8)
        return HTTPResponse(headers: ["Content-Type": "application/json; charset=utf-8"], body: .bytes(body))
    }
}
