import ProspectsCore
import Testing

@testable import ProspectStore

@Suite("ProspectSQL")
struct ProspectSQLTests {
    /// The ASCII shortcut must give exactly `DedupKey.make`'s answer, or the unique index would split one person.
    @Test(arguments: [
        "paul@example.com", "Paul@Example.COM", " paul@example.com", "paul@example.com\n", "\tA@B.C\r\n",
        "José@Example.com", "jose\u{301}@example.com", "x\u{0B}@y.z", "a\u{0B}", "\u{85}a@b.c", "a@b.c\u{A0}",
        "MIXED.Case+Tag@Sub.Example.ORG", "", " ", "İ@example.com", "ß@EXAMPLE.com", "K@example.com",
    ])
    func emailKeyMatchesDedupKey(email: String) {
        #expect(ProspectSQL.emailKey(email) == DedupKey.make(email))
    }

    @Test func nameKeyFoldsCaseAndNormalization() {
        #expect(ProspectSQL.nameKey("Bob") == "bob")
        #expect(ProspectSQL.nameKey("E\u{301}mile") == "émile")
        #expect(ProspectSQL.nameKey("ÉMILE") == "émile")
        #expect(ProspectSQL.nameKey("alice") == "alice")
    }
}
