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

    /// The Latin-1 shortcut, scalar by scalar, alone and between other letters: exactly `lowercased`.
    @Test func latin1ShortcutMatchesTheGeneralFormForEveryScalar() {
        for value in UInt32(0)...0xFF {
            let scalar = String(Unicode.Scalar(value)!)
            for name in [scalar, "A\(scalar)b", "\(scalar)\(scalar)Ü", "ä\(scalar)"] {
                let general = name.precomposedStringWithCanonicalMapping.lowercased()
                    .precomposedStringWithCanonicalMapping
                #expect(NameKey.make(name) == general, "U+\(String(value, radix: 16))")
            }
        }
    }

    @Test func nameKeyFoldsCaseAndNormalization() {
        #expect(NameKey.make("Bob") == "bob")
        #expect(NameKey.make("E\u{301}mile") == "émile")
        #expect(NameKey.make("ÉMILE") == "émile")
        #expect(NameKey.make("alice") == "alice")
    }
}

@Suite struct NameKeyFoldTests {
    @Test func lettersWithDiacriticsFoldToTheirBaseLetters() {
        #expect(NameKey.fold("zoë ødegård") == "zoe odegard")
        #expect(NameKey.fold("élodie") == "elodie")
        #expect(NameKey.fold("łukasz wałęsa") == "lukasz walesa")
        #expect(NameKey.fold("straße") == "strasse")
        #expect(NameKey.fold("nguyễn thị ánh") == "nguyen thi anh")
        #expect(NameKey.fold("şükrü çağlar") == "sukru caglar")
        #expect(NameKey.fold("æsa œuvre") == "aesa oeuvre")
    }

    @Test func otherScriptsAndASCIIAreLeftAsTheyAre() {
        #expect(NameKey.fold("paul hudson") == "paul hudson")
        #expect(NameKey.fold("李小龙") == "李小龙")
        #expect(NameKey.fold("σοφία") == "σοφία", "Greek is sorted among itself, by code point")
        #expect(NameKey.fold("ana 🙂") == "ana 🙂")
    }

    /// Every fold is ASCII, so folding twice changes nothing and a folded key never sorts among unfolded ones.
    @Test func everyFoldIsLowercaseASCIILetters() {
        for (scalar, fold) in NameKey.folds {
            #expect(!fold.isEmpty && fold.utf8.allSatisfy { (0x61...0x7A).contains($0) }, "\(scalar) → \(fold)")
        }
        #expect(NameKey.folds.count > 300)
    }
}

/// The natural, folded key `list --sort name` orders by.
@Suite struct NameSortKeyTests {
    @Test func digitRunsCompareAsNumbers() {
        let names = ["Person 10", "Person 2", "person 1", "Person 02b", "Élodie 3", "elena", "Room 007"]
        let sorted = names.sorted {
            NameKey.sortKey(NameKey.make($0)).utf8.lexicographicallyPrecedes(NameKey.sortKey(NameKey.make($1)).utf8)
        }
        #expect(sorted == ["elena", "Élodie 3", "person 1", "Person 2", "Person 02b", "Person 10", "Room 007"])
    }

    @Test func aNameWithoutDigitsIsItsFoldedKey() {
        #expect(NameKey.sortKey(NameKey.make("Jürgen Ødegård")) == "jurgen odegard")
        #expect(NameKey.searchKey("MÜLLER Straße") == "muller strasse")
    }
}
