import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import Testing
import WebTestSupport

/// A reminder's "in": `prospects remind --in` and the lead page's field read the same texts, to the same time (both
/// call `ReminderTime.parseFromNow`).
@Suite struct ReminderTextTests {
    @Test func theCommandLineAndTheWebAcceptTheSameReminderTexts() throws {
        let web = try WebFixture(leads: sampleLeads)
        let ada = try #require(try web.leads()["Ada Lovelace"])
        let accepted = ["2d", "1h30m", " 90m ", "3 days", "1 week", "2 hours", "45 minutes", "1 month"]
        let refused = ["soon", "3 fortnights", "in 3 days", "0s", "2", "101000d", "1.5 days"]
        for text in accepted + refused {
            let command = try ProspectsProcess.run(
                ["remind", "--store", web.storePath, "--in", text, "ada@example.org"])
            let byCommand = try web.leads()["Ada Lovelace"]?.remindAt
            let form = try web.post("/leads/\(ada.id)/remind", [("in", text)])
            let byWeb = try web.leads()["Ada Lovelace"]?.remindAt
            if accepted.contains(text) {
                #expect(command.status == 0, "\(text): \(command.stderr)")
                #expect(form.status == 303, "\(text)")
                let (cli, page) = (try #require(byCommand), try #require(byWeb))
                // Read a moment apart: the same time from now, give or take how long the command took.
                #expect(abs(cli.timeIntervalSince(page)) < 300, "\(text): \(cli) and \(page)")
                #expect(cli.timeIntervalSinceNow > 1_800, "\(text)")
            } else {
                #expect(command.status == 64, "\(text): \(command.stderr)")
                #expect(form.status == 400, "\(text)")
                #expect(form.text.contains("is no duration"), "\(text)")
            }
        }
    }
}
