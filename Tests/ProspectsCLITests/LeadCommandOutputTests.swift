import Foundation
import ProspectStore
import ProspectsCore
import ProspectsTestSupport
import Testing

@testable import ProspectsCLI

/// `note`, `rate`, `tag`, `edit`, `show`, `list` and `delete` on a real SQLite file, called as functions.
@Suite struct LeadCommandOutputTests {
    let fixture: CommandStoreFixture

    init() throws {
        fixture = try CommandStoreFixture(
            [
                Prospect(name: "Person 10", email: "p10@example.com"),
                Prospect(name: "Person 2", email: "p2@example.com", title: "Buyer"),
                Prospect(name: "Jürgen Müller", email: "jm@example.de", organization: "Brauerei Müller GmbH & Co. KG"),
            ], event: "Fair", collectedBy: "ana", environment: ["LOGNAME": "tester"])
    }

    func run(_ argv: [String], answers: [String]? = nil) -> CommandRun { fixture.run(argv, answers: answers) }

    @Test func tagTakesPlusAndMinusWordsAsArguments() {
        #expect(
            run(["tag", "p2@example.com", "+demo", "pricing", "-absent"]).out == "p2@example.com: tags: demo, pricing\n"
        )
        #expect(run(["tag", "p2@example.com", "-pricing"]).out == "p2@example.com: tags: demo\n")
        let unknown = run(["tag", "p2@example.com", "--bogus"])
        #expect(unknown.status == .usage)
        #expect(run(["tag", "nobody@example.com", "+x"]).err == "prospects: nobody@example.com: no such prospect\n")
    }

    @Test func noteIsSignedByTheLoginNameUnlessByIsGiven() throws {
        #expect(run(["note", "p2@example.com", "wants", "a", "quote"]).status == .success)
        #expect(run(["note", "--by", "bo", "p2@example.com", "sent it"]).status == .success)
        let shown = run(["show", "p2@example.com"])
        #expect(shown.lines.contains { $0.hasSuffix(" tester: wants a quote") }, "\(shown.out)")
        #expect(shown.lines.contains { $0.hasSuffix(" bo: sent it") }, "\(shown.out)")
        #expect(shown.lines.contains("title        Buyer"))
        #expect(shown.lines.contains("events       Fair"))
        #expect(shown.lines.contains("collected by ana"))
        #expect(shown.lines.contains { $0.hasSuffix("cards.png  at Fair  by ana") }, "\(shown.out)")
    }

    @Test func showTakesASearchOfExactlyOne() {
        #expect(run(["show", "muller"]).lines.contains("name         Jürgen Müller"))
        let several = run(["show", "person"])
        #expect(several.status == .dataError)
        #expect(several.err.contains("person matches more than one prospect (#"), "\(several.err)")
        #expect(run(["show", "nobody"]).status == .dataError)
    }

    @Test func editAndRateSayWhatTheyDid() {
        #expect(run(["rate", "p2@example.com", "WARM"]).out == "p2@example.com: rated warm\n")
        #expect(run(["rate", "p2@example.com", "none"]).out == "p2@example.com: rating cleared\n")
        let edited = run(["edit", "p2@example.com", "--title", "", "--name", "Person 02"])
        #expect(edited.out.hasPrefix("p2@example.com: edited: #"), "\(edited.err)")
        #expect(!run(["show", "p2@example.com"]).out.contains("title"))
        #expect(run(["edit", "p2@example.com"]).status == .usage)
        let clash = run(["edit", "p2@example.com", "--email", "p10@example.com"])
        #expect(clash.status == .dataError)
        #expect(clash.err.contains("p10@example.com is already prospect #1 (Person 10)"), "\(clash.err)")
    }

    @Test func listSortsNaturallyAndPicksItsColumns() {
        let listed = run(["list", "--columns", "name,title,event,by"])
        #expect(
            listed.lines == [
                "NAME           TITLE  EVENT  COLLECTED BY", "Jürgen Müller         Fair   ana",
                "Person 2       Buyer  Fair   ana", "Person 10             Fair   ana", "3 prospects (everyone)",
            ], "\(listed.out)")
        #expect(run(["list", "--columns", "name,shoe"]).status == .usage)
        #expect(
            run(["list", "--search", "MULLER", "--columns", "email"]).lines == [
                "EMAIL", "jm@example.de", "1 prospect (everyone)",
            ])
    }

    @Test func deleteAsksAPersonBeforeDeletingSeveral() {
        let declined = run(["delete", "p2@example.com", "p10@example.com"], answers: ["n"])
        #expect(declined.err.contains("Delete 2 prospects and their scan history? [y/N] "))
        #expect(declined.err.contains("nothing deleted"))
        #expect(run(["list", "--json"]).lines.count == 3)
        let one = run(["delete", "p2@example.com"], answers: [])
        #expect(one.out == "p2@example.com: deleted\n", "one prospect is deleted without a question")
        let skipped = run(["delete", "--yes", "p10@example.com", "jm@example.de"], answers: [])
        #expect(skipped.lines == ["p10@example.com: deleted", "jm@example.de: deleted"])
        #expect(!skipped.err.contains("?"))
    }

    @Test func aTableNarrowsToTheWidthItIsGiven() {
        let out = OutputStream(capturing: false)
        var table = TextTable(
            [.init("ID", keepsWidth: true), .init("NAME"), .init("EMAIL")], out: out, fit: 30)
        table.add(["12345", "Jürgen Müller the Younger", "juergen.mueller@example.de"])
        table.add(["7", "Ada", "ada@example.com"])
        table.finish()
        out.flush()
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { TextTable.displayWidth($0) <= 30 }, "\(lines)")
        #expect(lines[1].hasPrefix("12345  "), "the id keeps its width")
        #expect(lines[1].contains("…"))
        #expect(lines[2] == "7      Ada         ada@exampl…")
    }
}
