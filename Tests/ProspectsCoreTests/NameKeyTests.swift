import Foundation
import ProspectsCore
import Testing

@Suite struct NameKeyTests {
    /// The shortcut for text below U+0300 must give exactly the general form, or sorting would change.
    @Test(arguments: [
        "Bob", "Zoë Ødegård", "ÉMILE", "İlker", "STRAẞE", "Straße", "ǅemal", "Jürgen Müller", "\u{C5}SA", "ΣΑΣ",
        "E\u{301}mile", "ﬁ", "", " A ", "Ǆ", "ǈ", "\u{1E9E}",
    ])
    func nameKeyMatchesTheGeneralForm(name: String) {
        let general = name.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
        #expect(NameKey.make(name) == general)
    }

    @Test func nameKeyFoldsCaseAndNormalization() {
        #expect(NameKey.make("Bob") == "bob")
        #expect(NameKey.make("E\u{301}mile") == "émile")
        #expect(NameKey.make("ÉMILE") == "émile")
        #expect(NameKey.make("alice") == "alice")
    }
}
