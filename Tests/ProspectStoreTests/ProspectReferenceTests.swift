import ProspectStore
import ProspectsCore
import Testing

@Suite struct ProspectReferenceTests {
    /// An id pasted from the table often carries the spaces around it; an address is trimmed later, by its key.
    @Test(arguments: ["3", "#3", " 3", "3 ", "\t#3 "])
    func digitsAreAnIdWhateverSpacesSurroundThem(text: String) {
        #expect(ProspectReference(parsing: text) == .id(3))
    }

    @Test(arguments: ["0", "-3", "#", "3a", "ann@example.com", " ann@example.com "])
    func anythingElseIsAnAddress(text: String) {
        #expect(ProspectReference(parsing: text) == .email(text))
    }
}
