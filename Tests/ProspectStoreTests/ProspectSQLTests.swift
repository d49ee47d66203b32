import Foundation
import ProspectsCore
import Testing

@testable import ProspectStore

@Suite("ProspectSQL")
struct ProspectSQLTests {
    /// The shortcut for text below U+0300 must give exactly the general form, or sorting would change.
    @Test(arguments: [
        "Bob", "Zoë Ødegård", "ÉMILE", "İlker", "STRAẞE", "Straße", "ǅemal", "Jürgen Müller", "\u{C5}SA", "ΣΑΣ",
        "E\u{301}mile", "ﬁ", "", " A ", "Ǆ", "ǈ", "\u{1E9E}",
    ])
    func nameKeyMatchesTheGeneralForm(name: String) {
        let general = name.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
        #expect(ProspectSQL.nameKey(name) == general)
    }

    @Test func nameKeyFoldsCaseAndNormalization() {
        #expect(ProspectSQL.nameKey("Bob") == "bob")
        #expect(ProspectSQL.nameKey("E\u{301}mile") == "émile")
        #expect(ProspectSQL.nameKey("ÉMILE") == "émile")
        #expect(ProspectSQL.nameKey("alice") == "alice")
    }
}
