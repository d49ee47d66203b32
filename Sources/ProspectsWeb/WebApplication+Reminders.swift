import Foundation
import HTTPServer
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
        return .json(answer, fallback: #"{"due":0,"leads":[]}"#)
    }

    func remindersPage(_ context: Context) throws -> HTTPResponse {
        let generation = generation.current()
        let groups = try services.withService { try $0.reminders(at: now()) }
        return page(RemindersPage(groups: groups, csrfToken: context.session.csrfToken, generation: generation).html)
    }

    func remind(_ id: Int64, _ context: Context) throws -> HTTPResponse {
        let form = context.request.form
        let path = returnPath(context, fallback: "/leads/\(id)")
        var date: Date?
        if form["clear"] == "true" {
            date = nil
        } else if let text = form["in"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let parsed = ReminderTime.parseFromNow(text, now: now(), timeZone: .current) else {
                let message = "“\(text)” is no duration (try 2d, 1w, 3h30m or 3 days)."
                return page(MessagePage(title: "Reminder not set", message: message).html, status: 400)
            }
            date = parsed
        } else if let text = form["at"], !text.isEmpty {
            // datetime-local sends `2026-12-01T09:00`, in the browser's zone (`tz`) or else the server's.
            let zone = BrowserTime.zone(form[BrowserTime.fieldName])
            guard let parsed = ReminderTime.parseDate(text.replacingOccurrences(of: "T", with: " "), timeZone: zone)
            else {
                return page(
                    MessagePage(title: "Reminder not set", message: "“\(text)” is no date this server can read.")
                        .html, status: 400)
            }
            date = parsed
        } else {
            return page(
                MessagePage(title: "Reminder not set", message: "Give a date and time, or a duration.").html,
                status: 400)
        }
        guard try services.withService({ try $0.setReminder(.id(id), at: date) }) else { return notFound() }
        changes.noteChange()
        return .redirect(to: path)
    }
}
